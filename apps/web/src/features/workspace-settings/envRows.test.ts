import { describe, expect, it } from 'vitest';
import { rowsProblem } from './envRows';

describe('env rows', () => {
  it('explains what is wrong', () => {
    expect(rowsProblem([])).toBe('Please add at least one environment variable');
    expect(rowsProblem([{ key: 'FOO BAR', value: '1' }])).toMatch(/Invalid variable name/);
    expect(rowsProblem([{ key: 'FOO', value: '1' }])).toBeUndefined();
  });
});
