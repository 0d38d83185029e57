import { describe, expect, it } from 'vitest';
import { capLines, entryText, isAtBottom, lineKey, logLevelOf, parseStreamLine } from './logParsing';

describe('logLevelOf', () => {
  it.each([
    ['Connection ERROR: refused', 'error'],
    ['warning: disk at 80%', 'warning'],
    ['Build success', 'success'],
    ['listening on :8080', 'info'],
    ['error and warning', 'error'],
    ['Warning then success', 'warning'],
  ])('reads %j as %s (error first, then warning, then success)', (text, level) => {
    expect(logLevelOf(text)).toBe(level);
  });
});

describe('parseStreamLine', () => {
  it('parses timestamp, service and the JSON payload', () => {
    const raw = `data: 2025-01-01T00:00:00.000Z\tweb\t${JSON.stringify({ log: 'hello\n', source: 'stderr', container_id: 'abc' })}`;
    expect(parseStreamLine(raw)).toEqual({
      timestamp: '2025-01-01T00:00:00.000Z',
      service: 'web',
      text: 'hello',
      source: 'stderr',
      containerId: 'abc',
    });
  });

  it('keeps tabs inside the payload', () => {
    const raw = `data: t\tapi\t${JSON.stringify({ log: 'a\tb', source: 'stdout', container_id: null })}`;
    expect(parseStreamLine(raw)?.text).toBe('a\tb');
  });

  it('keeps markup as plain text', () => {
    const raw = `data: t\tweb\t${JSON.stringify({ log: '<script>alert(1)</script>', source: 'stdout' })}`;
    expect(parseStreamLine(raw)?.text).toBe('<script>alert(1)</script>');
  });

  it.each([': keep-alive', '', 'data: ', 'event: ping'])(
    'ignores %j (no data prefix, or blank data)',
    (raw) => {
      expect(parseStreamLine(raw)).toBeNull();
    },
  );

  it('shows a payload that is not JSON as text, and a line without tabs whole', () => {
    expect(parseStreamLine('data: t\tweb\tnot json')?.text).toBe('not json');
    expect(parseStreamLine('data: just text')).toMatchObject({ text: 'just text', service: '' });
  });

  it('strips a trailing carriage return', () => {
    expect(parseStreamLine(`data: t\tweb\t${JSON.stringify({ log: 'x' })}\r`)?.text).toBe('x');
  });
});

describe('helpers', () => {
  it('reads message or content from stored entries', () => {
    expect(entryText({ message: 'm' })).toBe('m');
    expect(entryText({ content: 'c' })).toBe('c');
    expect(entryText({})).toBe('');
  });

  it('keys lines by timestamp, service and text', () => {
    expect(lineKey({ timestamp: 't', service: 's', text: 'x' })).not.toBe(
      lineKey({ timestamp: 't', service: 's2', text: 'x' }),
    );
  });

  it('caps the buffer to the newest lines', () => {
    const lines = [1, 2, 3, 4, 5];
    expect(capLines(lines, 3)).toBe(2);
    expect(lines).toEqual([3, 4, 5]);
    expect(capLines(lines, 10)).toBe(0);
  });

  it('treats 10 px from the bottom as the bottom', () => {
    expect(isAtBottom({ scrollTop: 490, scrollHeight: 1000, clientHeight: 500 })).toBe(true);
    expect(isAtBottom({ scrollTop: 489, scrollHeight: 1000, clientHeight: 500 })).toBe(false);
  });
});
