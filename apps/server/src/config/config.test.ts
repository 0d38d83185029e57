import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cookiePolicy } from '../http/requestContext.js';
import { ConfigError, loadConfig } from './config.js';
import { resolveSecrets } from './secrets.js';

describe('config', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names the variable whose value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY: must be 64 hexadecimal/);
    expect(() => loadConfig({ AZURE_KEY_VAULT_URL: 'https://v.vault.azure.net' })).toThrow(
      /AZURE_KEY_VAULT_KEY_NAME: AZURE_KEY_VAULT_URL and AZURE_KEY_VAULT_KEY_NAME go together/,
    );
  });

  it('refuses to start in production without its secrets', () => {
    const attempt = () => loadConfig({ NODE_ENV: 'production' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SESSION_SECRET: is required when NODE_ENV=production/);
    expect(attempt).toThrow(/ENCRYPTION_KEY/);
    expect(attempt).toThrow(/ADMIN_PASSWORD/);
  });

  it('listens on loopback only in local mode, and anywhere once GitHub is configured', () => {
    expect(loadConfig({ HOST: '0.0.0.0' })).toMatchObject({ authMode: 'local', host: '127.0.0.1' });
    expect(
      loadConfig({ HOST: '0.0.0.0', GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' }),
    ).toMatchObject({ authMode: 'github', host: '0.0.0.0' });
  });

  it('generates embedded secrets once, keeps them private, and reuses them', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-config-'));
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir });
    const first = resolveSecrets(config);
    const second = resolveSecrets(config);
    expect(first.adminPasswordGenerated).toBe(true);
    expect(second.adminPasswordGenerated).toBe(false);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(first.encryptionKey).toHaveLength(32);
    expect(statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('uses __Host- Secure cookies in production', () => {
    expect(cookiePolicy(true)).toEqual({ sessionCookie: '__Host-slipway_session', secure: true });
    expect(cookiePolicy(false)).toEqual({ sessionCookie: 'slipway_session', secure: false });
  });
});
