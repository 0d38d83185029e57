import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, UsageError } from './cliErrors.js';
import { useScratchDirs } from './scratchDirs.test-helper.js';
import {
  configFilePath,
  readStoredLogin,
  removeStoredLogin,
  resolveTarget,
  type StoredLoginRead,
  writeStoredLogin,
} from './settings.js';

const NONE: StoredLoginRead = { kind: 'none' };
const kept = (url: string, token: string): StoredLoginRead => ({ kind: 'kept', login: { url, token } });

function usageError(act: () => unknown): UsageError {
  try {
    act();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('no usage error');
}

describe('settings', () => {
  const scratch = useScratchDirs();

  it('keeps the login under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/slipway/config.json');
    expect(configFilePath({ HOME: '/home/ada' })).toMatch(/\.config\/slipway\/config\.json$/);
  });

  it('writes the login readable by its owner only (0600), also over an older file; logout removes it', async () => {
    const file = path.join(scratch(), 'slipway', 'config.json');
    await writeStoredLogin(file, { url: 'http://a', token: 'slw_1' });
    await writeStoredLogin(file, { url: 'http://b', token: 'slw_2' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(await readStoredLogin(file)).toEqual(kept('http://b', 'slw_2'));
    expect(await removeStoredLogin(file)).toBe(true);
    expect(await readStoredLogin(file)).toEqual(NONE);
    expect(await removeStoredLogin(file)).toBe(false);
  });

  it('reads a damaged or unreadable file as such, with the reason, and never throws', async () => {
    const dir = scratch();
    const file = path.join(dir, 'config.json');
    for (const [text, reason] of [
      ['{"url": "http://a", "tok', 'it is not JSON'],
      ['', 'it is not JSON'],
      ['[1, 2]', 'it does not hold a server and a token'],
      ['{"url": "notaurl", "token": "slw_1"}', 'its server address is not a URL'],
    ] as const) {
      writeFileSync(file, text);
      expect(await readStoredLogin(file), text).toEqual({ kind: 'damaged', file, reason });
    }
    const directory = path.join(dir, 'a-directory');
    mkdirSync(directory);
    expect(await readStoredLogin(directory)).toEqual({
      kind: 'unreadable',
      file: directory,
      reason: 'it is a directory',
    });
  });

  it('chooses the server and token: flag, environment, login, default; a stored token only for its server', () => {
    const stored = kept('http://stored:3000/', 'slw_stored');
    const timeoutMs = 60_000;
    expect(resolveTarget({}, {}, NONE)).toEqual({
      url: 'http://localhost:3000',
      token: undefined,
      timeoutMs,
    });
    expect(resolveTarget({}, {}, stored)).toEqual({
      url: 'http://stored:3000',
      token: 'slw_stored',
      timeoutMs,
    });
    expect(resolveTarget({ url: 'http://other' }, {}, stored)).toEqual({
      url: 'http://other',
      token: undefined,
      timeoutMs,
    });
    expect(resolveTarget({}, { SLIPWAY_URL: 'http://ci', SLIPWAY_TOKEN: 'slw_ci' }, stored)).toEqual({
      url: 'http://ci',
      token: 'slw_ci',
      timeoutMs,
    });
    expect(resolveTarget({ url: 'http://flag' }, { SLIPWAY_URL: 'http://ci' }, NONE).url).toBe('http://flag');
    expect(resolveTarget({}, { SLIPWAY_URL: '  ' }, NONE).url).toBe('http://localhost:3000');
    expect(resolveTarget({}, { SLIPWAY_TIMEOUT: '2.5' }, NONE).timeoutMs).toBe(2500);
  });

  it('refuses a server address that is not one, naming where it came from (exit 2)', () => {
    for (const [flags, env, message] of [
      [{ url: 'notaurl' }, {}, '--url "notaurl" is not a Slipway server address (it is not a URL)'],
      [
        {},
        { SLIPWAY_URL: 'ftp://x' },
        'SLIPWAY_URL "ftp://x" is not a Slipway server address (it is not an http',
      ],
      [{ url: 'http://u:p@x' }, {}, 'it holds a user name or password'],
      [{ url: 'http://x/?a=1' }, {}, 'it has a ?query or #fragment'],
    ] as const) {
      const error = usageError(() => resolveTarget(flags, env, NONE));
      expect(error.message).toContain(message);
      expect(error.exitCode).toBe(EXIT.usage);
    }
    expect(usageError(() => resolveTarget({}, { SLIPWAY_TIMEOUT: 'soon' }, NONE)).message).toBe(
      'SLIPWAY_TIMEOUT "soon" is not a number of seconds from 1 to 3600',
    );
  });

  it('says what is wrong with a damaged login only where it is needed, and what to do', () => {
    const damaged: StoredLoginRead = {
      kind: 'damaged',
      file: '/h/.config/slipway/config.json',
      reason: 'it is not JSON',
    };
    const error = usageError(() => resolveTarget({}, {}, damaged));
    expect(error.message).toBe(
      'Cannot use the login kept in /h/.config/slipway/config.json (it is not JSON): run `slipway logout` to remove it, then `slipway login` again, or set SLIPWAY_URL and SLIPWAY_TOKEN',
    );
    expect(error.exitCode).toBe(EXIT.usage);
    // The token would come from it.
    expect(() => resolveTarget({ url: 'http://x' }, {}, damaged)).toThrow(UsageError);
    // A CI job with both in its environment does not need it.
    expect(resolveTarget({}, { SLIPWAY_URL: 'http://ci', SLIPWAY_TOKEN: 'slw_ci' }, damaged).token).toBe(
      'slw_ci',
    );
    // login replaces it.
    expect(resolveTarget({}, {}, damaged, { ignoreDamaged: true }).url).toBe('http://localhost:3000');
  });
});
