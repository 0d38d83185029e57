import { describe, expect, it } from 'vitest';
import { filledRows, parseEnvText, rowsProblem } from './envRows';

describe('env rows', () => {
  it('keeps rows with a key and a value', () => {
    expect(
      filledRows([
        { key: ' API_KEY ', value: 'x' },
        { key: '', value: 'y' },
        { key: 'EMPTY', value: '  ' },
      ]),
    ).toEqual([{ key: 'API_KEY', value: 'x' }]);
  });

  it('explains what is wrong', () => {
    expect(rowsProblem([])).toBe('Please add at least one environment variable');
    expect(rowsProblem([{ key: 'FOO BAR', value: '1' }])).toMatch(/Invalid variable name/);
    expect(rowsProblem([{ key: 'FOO', value: '1' }])).toBeUndefined();
  });

  it('parses pasted KEY=VALUE text', () => {
    expect(parseEnvText('# c\nA=1\n\nB="two=2"\nnot a pair\n')).toEqual([
      { key: 'A', value: '1' },
      { key: 'B', value: 'two=2' },
    ]);
  });
});
