import { describe, expect, it } from 'vitest';
import { isAcceptedEnvFile, looksLikeEnvPaste, parseEnvText } from './envFileParser';
import {
  applyPaste,
  canLockByKeyboard,
  completeVariables,
  type EnvRow,
  mergeUploaded,
  removeRow,
} from './envRows';

describe('parseEnvText', () => {
  it('skips blanks, comments and lines without =', () => {
    expect(parseEnvText('\n# comment\n  #also\nNOEQUALS\nA=1\n\n')).toEqual([{ key: 'A', value: '1' }]);
  });
  it('splits on the first = only', () => {
    expect(parseEnvText('URL=postgres://u:p@h/db?a=b')).toEqual([
      { key: 'URL', value: 'postgres://u:p@h/db?a=b' },
    ]);
  });
  it('trims keys and values and drops empty keys', () => {
    expect(parseEnvText('  KEY  =  value  \n=orphan\n  = x')).toEqual([{ key: 'KEY', value: 'value' }]);
  });
  it('removes one leading and one trailing quote, single or double', () => {
    expect(parseEnvText('A="quoted"\nB=\'single\'\nC=""double""\nD="half\nE=mixed\'')).toEqual([
      { key: 'A', value: 'quoted' },
      { key: 'B', value: 'single' },
      { key: 'C', value: '"double"' },
      { key: 'D', value: 'half' },
      { key: 'E', value: 'mixed' },
    ]);
  });
  it('keeps empty values and handles CRLF', () => {
    expect(parseEnvText('EMPTY=\r\nQ=""\r\nX=1')).toEqual([
      { key: 'EMPTY', value: '' },
      { key: 'Q', value: '' },
      { key: 'X', value: '1' },
    ]);
  });
  it('keeps a hash inside a value', () => {
    expect(parseEnvText('COLOR=#fff')).toEqual([{ key: 'COLOR', value: '#fff' }]);
  });
});

describe('files and paste', () => {
  it('accepts .env and .txt only', () => {
    expect(isAcceptedEnvFile('.env')).toBe(true);
    expect(isAcceptedEnvFile('prod.ENV')).toBe(true);
    expect(isAcceptedEnvFile('vars.txt')).toBe(true);
    expect(isAcceptedEnvFile('.env.local')).toBe(false);
    expect(isAcceptedEnvFile('config.json')).toBe(false);
  });
  it('treats multi-line text with = as a paste of variables', () => {
    expect(looksLikeEnvPaste('A=1\nB=2')).toBe(true);
    expect(looksLikeEnvPaste('A=1')).toBe(false);
    expect(looksLikeEnvPaste('hello\nworld')).toBe(false);
  });
});

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
