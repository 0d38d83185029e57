import { describe, expect, it } from 'vitest';
import { defaultBranch } from './defaultBranch';

describe('defaultBranch', () => {
  it('prefers main, then master, then the first', () => {
    expect(defaultBranch(['dev', 'master', 'main'])).toBe('main');
    expect(defaultBranch(['dev', 'master'])).toBe('master');
    expect(defaultBranch(['dev', 'feature/x'])).toBe('dev');
    expect(defaultBranch([])).toBe('');
  });
  it('does not match main as a substring', () => {
    expect(defaultBranch(['maintenance', 'x'])).toBe('maintenance');
    expect(defaultBranch(['x', 'maintenance'])).toBe('x');
  });
});
