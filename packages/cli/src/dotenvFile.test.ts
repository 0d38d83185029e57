import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from './cliErrors.js';
import { parseDotenv, readDotenvFile } from './dotenvFile.js';
import { useScratchDirs } from './scratchDirs.test-helper.js';

describe('.env files', () => {
  const scratch = useScratchDirs();

  it('reads them by dotenv’s rules: comments, export, quotes, multi-line values', () => {
    const text = [
      '# a comment',
      'PLAIN=value',
      'export EXPORTED=yes',
      "SINGLE='kept $AS_IS'",
      'DOUBLE="line one\\nline two"',
      'MULTI="first',
      'second"',
      'INLINE=value # not part of it',
      'EMPTY=',
      'HAS_EQUALS=a=b=c',
      '',
    ].join('\n');
    expect(parseDotenv(text)).toEqual([
      { key: 'PLAIN', value: 'value' },
      { key: 'EXPORTED', value: 'yes' },
      { key: 'SINGLE', value: 'kept $AS_IS' },
      { key: 'DOUBLE', value: 'line one\nline two' },
      { key: 'MULTI', value: 'first\nsecond' },
      { key: 'INLINE', value: 'value' },
      { key: 'EMPTY', value: '' },
      { key: 'HAS_EQUALS', value: 'a=b=c' },
    ]);
  });

  it('refuses a name the server would refuse before sending anything', () => {
    expect(() => parseDotenv('GOOD=1\nBAD.NAME=2\n')).toThrow(/Invalid variable name "BAD.NAME"/);
  });

  it('says which file it cannot read, and a file with no variables', async () => {
    const dir = scratch();
    await expect(readDotenvFile(path.join(dir, 'missing.env'))).rejects.toThrow(/missing.env: no such file/);
    writeFileSync(path.join(dir, 'empty.env'), '# nothing\n');
    const error = await readDotenvFile(path.join(dir, 'empty.env')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(/holds no variables/);
  });
});
