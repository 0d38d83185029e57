import { describe, expect, it } from 'vitest';
import { logStreamUrl, parseLogMessage } from './logs';

describe('log stream', () => {
  it('builds the spec URLs', () => {
    expect(logStreamUrl('me', 'app', 'build')).toBe(
      '/api/logs/me/app/stream?log_type=build&initial_lines=10&follow=true',
    );
    expect(logStreamUrl('me', 'app', 'service')).toBe(
      '/api/logs/me/app/stream?log_type=service&initial_lines=20&follow=true',
    );
  });
  it('keeps plain text, including markup, as text', () => {
    expect(parseLogMessage('<script>alert(1)</script>').text).toBe('<script>alert(1)</script>');
    expect(parseLogMessage('{not json').text).toBe('{not json');
  });
  it('reads JSON log objects', () => {
    expect(parseLogMessage('{"service":"web","log":"ready","ts":"t"}')).toMatchObject({
      text: '[web] ready',
      timestamp: 't',
    });
    expect(parseLogMessage('{"level":"info"}').text).toBe('{"level":"info"}');
  });
});
