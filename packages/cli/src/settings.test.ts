import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDirs } from './scratchDirs.test-helper.js';
import { configFilePath, readStoredLogin, resolveTarget, writeStoredLogin } from './settings.js';

describe('settings', () => {
  const scratch = useScratchDirs();

  it('keeps the login under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/slipway/config.json');
    expect(configFilePath({ HOME: '/home/ada' })).toMatch(/\.config\/slipway\/config\.json$/);
  });

  it('writes the login readable by its owner only (0600), also over an older file', async () => {
    const file = path.join(scratch(), 'slipway', 'config.json');
    await writeStoredLogin(file, { url: 'http://a', token: 'slw_1' });
    await writeStoredLogin(file, { url: 'http://b', token: 'slw_2' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(await readStoredLogin(file)).toEqual({ url: 'http://b', token: 'slw_2' });
  });

  it('chooses the server and token: flag, environment, login, default; a stored token only for its server', () => {
    const stored = { url: 'http://stored:3000/', token: 'slw_stored' };
    expect(resolveTarget({}, {}, undefined)).toEqual({ url: 'http://localhost:3000', token: undefined });
    expect(resolveTarget({}, {}, stored)).toEqual({ url: 'http://stored:3000', token: 'slw_stored' });
    expect(resolveTarget({ url: 'http://other' }, {}, stored)).toEqual({
      url: 'http://other',
      token: undefined,
    });
    expect(resolveTarget({}, { SLIPWAY_URL: 'http://ci', SLIPWAY_TOKEN: 'slw_ci' }, stored)).toEqual({
      url: 'http://ci',
      token: 'slw_ci',
    });
    expect(resolveTarget({ url: 'http://flag' }, { SLIPWAY_URL: 'http://ci' }, undefined).url).toBe(
      'http://flag',
    );
  });
});
