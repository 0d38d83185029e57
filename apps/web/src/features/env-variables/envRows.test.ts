import { describe, expect, it } from 'vitest';
import {
  applyPaste,
  canLockByKeyboard,
  completeVariables,
  type EnvRow,
  mergeUploaded,
  removeRow,
} from './envRows';

const row = (key: string, value: string, isReadOnly = false): EnvRow => ({
  id: key || 'empty',
  key,
  value,
  isReadOnly,
});

describe('rows', () => {
  it('locks by keyboard only with at least 2 trimmed characters each', () => {
    expect(canLockByKeyboard({ key: 'AB', value: 'cd' })).toBe(true);
    expect(canLockByKeyboard({ key: ' A ', value: 'cd' })).toBe(false);
    expect(canLockByKeyboard({ key: 'AB', value: ' c' })).toBe(false);
  });
  it('sends only complete rows', () => {
    expect(completeVariables([row('A', '1'), row('B', ' '), row(' ', 'x'), row(' C ', ' v ')])).toEqual([
      { key: 'A', value: '1' },
      { key: 'C', value: ' v ' },
    ]);
  });
  it('leaves one empty row after deleting the last', () => {
    const rows = removeRow([row('A', '1')], 'A');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ key: '', value: '', isReadOnly: false });
  });
  it('paste replaces empty rows and appends to filled ones, locked', () => {
    const rows = applyPaste([row('A', '1', true), row('', '')], [{ key: 'B', value: '2' }]);
    expect(rows.map((r) => [r.key, r.value, r.isReadOnly])).toEqual([
      ['A', '1', true],
      ['B', '2', true],
    ]);
  });
  it('upload merge lets new keys override', () => {
    const rows = mergeUploaded(
      [row('A', 'old', true), row('KEEP', 'k', true), row('', '')],
      [
        { key: 'A', value: 'new' },
        { key: 'C', value: '3' },
      ],
    );
    expect(rows.map((r) => [r.key, r.value])).toEqual([
      ['A', 'new'],
      ['KEEP', 'k'],
      ['C', '3'],
    ]);
  });
});
