import { describe, expect, it } from 'vitest';
import { formatLogStreamLine, type LogStreamLine, parseLogStreamLine } from './logStreamLine.js';

describe('the log stream line', () => {
  it('reads back what it wrote: tabs, newlines, quotes and markup in the text, names made one-line', () => {
    const lines: LogStreamLine[] = [
      {
        ts: '2026-11-27T12:00:00.000Z',
        service: 'web',
        log: 'a\tb\n"c"\r\n<b>x</b>',
        source: 'stderr',
        container_id: 'abc',
      },
      {
        ts: '2026-11-27T12:00:01.000Z',
        service: 'build',
        log: 'web    | Step 1/5 : FROM busybox:1.36',
        source: 'build',
        container_id: null,
      },
    ];
    for (const line of lines) expect(parseLogStreamLine(formatLogStreamLine(line))).toEqual(line);
    const odd = formatLogStreamLine({ ...lines[0]!, service: 'we\tb\nx' });
    expect(odd.split('\t')).toHaveLength(3);
    expect(parseLogStreamLine(odd)?.service).toBe('we b x');
  });

  it('keeps what is not a stream line as text, and skips blank data', () => {
    expect(parseLogStreamLine('plain words')).toMatchObject({ log: 'plain words', service: '' });
    expect(parseLogStreamLine('t\tweb\tnot json')).toMatchObject({ log: 'not json', service: 'web' });
    expect(parseLogStreamLine('  ')).toBeNull();
  });
});
