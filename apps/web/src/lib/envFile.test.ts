import { describe, expect, it } from 'vitest';
import { completePairs, envPaste, isAcceptedEnvFile, looksLikeEnvPaste, parseEnvText } from './envFile';

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
  it('gives the pairs of a pasted .env text, and nothing for an ordinary paste', () => {
    expect(envPaste('# c\nA=1\n\nB="two=2"\nnot a pair\n')).toEqual([
      { key: 'A', value: '1' },
      { key: 'B', value: 'two=2' },
    ]);
    expect(envPaste('A=1')).toBeNull();
    expect(envPaste('=x\n=y')).toBeNull();
  });
});

describe('complete rows', () => {
  it('keeps rows with a key and a value, the key trimmed', () => {
    expect(
      completePairs([
        { key: ' API_KEY ', value: ' x ' },
        { key: '', value: 'y' },
        { key: 'EMPTY', value: '  ' },
      ]),
    ).toEqual([{ key: 'API_KEY', value: ' x ' }]);
  });
});
