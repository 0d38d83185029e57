import { describe, expect, it } from 'vitest';
import { logStreamUrl } from './logs';

describe('log stream', () => {
  it('builds the spec URLs', () => {
    expect(logStreamUrl('me', 'app', 'build')).toBe(
      '/api/logs/me/app/stream?log_type=build&initial_lines=10&follow=true',
    );
    expect(logStreamUrl('me', 'app', 'service')).toBe(
      '/api/logs/me/app/stream?log_type=service&initial_lines=20&follow=true',
    );
  });
});
