import { describe, expect, it } from 'vitest';
import { UsageError } from './cliErrors.js';
import { parseCommandLine } from './commandLine.js';

const parse = (line: string) => parseCommandLine(line.split(' ').filter(Boolean));

function usageError(line: string): UsageError {
  try {
    parse(line);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${line}: no usage error`);
}

describe('the command line', () => {
  it('reads deploy with its defaults and its flags, global options before or after the command', () => {
    expect(parse('deploy operator/shop')).toEqual({
      command: 'deploy',
      json: false,
      url: undefined,
      owner: 'operator',
      repo: 'shop',
      branch: 'main',
      size: undefined,
      redeploy: false,
    });
    expect(
      parse(
        '--url http://slipway.example deploy operator/shop --branch dev --size Standard_B2als_v2 --redeploy --json',
      ),
    ).toEqual({
      command: 'deploy',
      json: true,
      url: 'http://slipway.example',
      owner: 'operator',
      repo: 'shop',
      branch: 'dev',
      size: 'Standard_B2als_v2',
      redeploy: true,
    });
  });

  it('reads every other command', () => {
    expect(parse('login --token slw_x')).toMatchObject({ command: 'login', token: 'slw_x' });
    expect(parse('login')).toMatchObject({ command: 'login', token: undefined });
    expect(parse('whoami --json')).toMatchObject({ command: 'whoami', json: true });
    expect(parse('workspaces')).toMatchObject({ command: 'workspaces' });
    expect(parse('status')).toMatchObject({ command: 'status', workspace: undefined });
    expect(parse('status shop')).toMatchObject({ command: 'status', workspace: 'shop' });
    expect(parse('logs shop')).toMatchObject({
      workspace: 'shop',
      service: undefined,
      follow: false,
      lines: 100,
    });
    expect(parse('logs shop --service web -f -n 20')).toMatchObject({
      command: 'logs',
      service: 'web',
      follow: true,
      lines: 20,
    });
    expect(parse('rollback shop')).toMatchObject({
      command: 'rollback',
      workspace: 'shop',
      revision: undefined,
    });
    expect(parse('rollback shop 1a2b')).toMatchObject({ revision: '1a2b' });
    expect(parse('env list shop')).toMatchObject({ command: 'env list', workspace: 'shop' });
    expect(parse('env unset shop A B')).toMatchObject({ command: 'env unset', keys: ['A', 'B'] });
    expect(parse('env import shop prod.env')).toMatchObject({ command: 'env import', file: 'prod.env' });
    expect(parse('delete shop')).toMatchObject({ command: 'delete', workspace: 'shop', yes: false });
    expect(parse('delete shop --yes')).toMatchObject({ yes: true });
    expect(parse('logout')).toMatchObject({ command: 'logout' });
    expect(parse('backups list shop')).toMatchObject({ command: 'backups list', workspace: 'shop' });
    expect(parse('backups create shop')).toMatchObject({ command: 'backups create', wait: true });
    expect(parse('backups create shop --no-wait')).toMatchObject({ wait: false });
    expect(parse('backups restore shop 3f2a')).toMatchObject({
      command: 'backups restore',
      workspace: 'shop',
      backup: '3f2a',
      service: undefined,
      yes: false,
      wait: true,
    });
    expect(parse('backups restore shop 3f2a --service db --yes --no-wait')).toMatchObject({
      service: 'db',
      yes: true,
      wait: false,
    });
  });

  it('keeps a value after the first = exactly as typed', () => {
    expect(
      parseCommandLine(['env', 'set', 'shop', 'A=1', 'URL=postgres://u:p@h/db?x=1', 'EMPTY=', 'SPACED=a b']),
    ).toEqual({
      command: 'env set',
      json: false,
      url: undefined,
      workspace: 'shop',
      variables: [
        { key: 'A', value: '1' },
        { key: 'URL', value: 'postgres://u:p@h/db?x=1' },
        { key: 'EMPTY', value: '' },
        { key: 'SPACED', value: 'a b' },
      ],
    });
  });

  it('answers undefined for help and the version (exit 0)', () => {
    expect(parse('--help')).toBeUndefined();
    expect(parse('--version')).toBeUndefined();
  });

  it('refuses what it cannot read as a usage error (exit 2), in a sentence', () => {
    for (const [line, message] of [
      ['deploy shop', '"shop" is not OWNER/REPO'],
      ['deploy a/b/c', '"a/b/c" is not OWNER/REPO'],
      ['deploy own_er/shop', '"own_er/shop" is not OWNER/REPO'],
      ['deploy a/b --size huge', 'choose Standard_B2ats_v2 or Standard_B2als_v2'],
      ['env set shop NOVALUE', '"NOVALUE" is not KEY=VALUE'],
      ['env set shop 1A=b', 'Invalid variable name "1A"'],
      ['env unset shop BAD-KEY', 'Invalid variable name "BAD-KEY"'],
      ['logs shop -n 0', 'give a whole number of lines from 1 to 5000'],
      ['logs', "missing required argument 'workspace'"],
      ['deploy a/b --colour', "unknown option '--colour'"],
      ['bogus', "unknown command 'bogus'"],
      ['status a/b', 'Invalid workspace name'],
      ['logs ..', 'Invalid workspace name'],
      ['backups restore shop not-an-id', '"not-an-id" is not a backup id'],
      ['backups restore shop', "missing required argument 'backup-id'"],
    ] as const) {
      const error = usageError(line);
      expect(error.exitCode, line).toBe(2);
      expect(error.message, line).toContain(message);
    }
    expect(usageError('env').exitCode).toBe(2);
    expect(usageError('backups').message).toBe('A command is missing: see the list above');
  });
});
