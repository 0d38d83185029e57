import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cookiePolicy } from '../auth/sessionCookies.js';
import { ConfigError, loadConfig, REPOSITORY_ROOT } from './config.js';
import { ENV_FILE, withEnvFile } from './envFile.js';
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

  it('reads the engines and servers of nodes 2, 3, … and names the setting that is written wrong', () => {
    expect(loadConfig({}).vm.cluster).toEqual({ engines: [], localAddress: undefined, sshHosts: [] });
    const cluster = loadConfig({
      CLUSTER_ENGINES: ' unix:///run/n2.sock@10.250.1.12, unix:///run/n3.sock@10.250.1.13 ',
      CLUSTER_LOCAL_ADDRESS: '10.250.1.11',
      SSH_PORT: '2222',
      SSH_CLUSTER_HOSTS: '10.0.0.12,node3.internal:22,[fd00::4]',
    }).vm.cluster;
    expect(cluster).toEqual({
      engines: [
        { socketPath: '/run/n2.sock', address: '10.250.1.12' },
        { socketPath: '/run/n3.sock', address: '10.250.1.13' },
      ],
      localAddress: '10.250.1.11',
      sshHosts: [
        { host: '10.0.0.12', port: 2222 },
        { host: 'node3.internal', port: 22 },
        { host: 'fd00::4', port: 2222 },
      ],
    });
    expect(() => loadConfig({ CLUSTER_ENGINES: '/run/n2.sock', CLUSTER_LOCAL_ADDRESS: '10.0.0.1' })).toThrow(
      /CLUSTER_ENGINES: each engine is written unix:\/\/\/path\/to\/engine.sock@ADDRESS/,
    );
    expect(() =>
      loadConfig({ CLUSTER_ENGINES: 'unix:///run/n2.sock@node2', CLUSTER_LOCAL_ADDRESS: '10.0.0.1' }),
    ).toThrow(/CLUSTER_ENGINES: .*"unix:\/\/\/run\/n2.sock@node2" is not/);
    expect(() => loadConfig({ CLUSTER_ENGINES: 'unix:///run/n2.sock@10.0.0.2' })).toThrow(
      /CLUSTER_LOCAL_ADDRESS: is required with CLUSTER_ENGINES/,
    );
    expect(() => loadConfig({ SSH_CLUSTER_HOSTS: 'root@10.0.0.12' })).toThrow(
      /SSH_CLUSTER_HOSTS: each server/,
    );
  });

  it('refuses to start in production without its secrets', () => {
    const attempt = () => loadConfig({ NODE_ENV: 'production' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SESSION_SECRET: is required when NODE_ENV=production/);
    expect(attempt).toThrow(/ENCRYPTION_KEY/);
    expect(attempt).toThrow(/ADMIN_PASSWORD/);
  });

  it('refuses to start in production without GitHub sign-in, naming the variables', () => {
    const secrets = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      ADMIN_PASSWORD: 'a-long-admin-password',
      DATABASE_URL: 'postgres://127.0.0.1:5432/slipway',
    };
    const attempt = () => loadConfig(secrets);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      /GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET: are required when NODE_ENV=production[\s\S]*GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY, GITHUB_APP_SLUG/,
    );
    // A GitHub App alone signs nobody in: its client ID and secret are what sign-in uses.
    expect(() => loadConfig({ ...secrets, GITHUB_APP_ID: '1', GITHUB_APP_PRIVATE_KEY: 'pem' })).toThrow(
      /GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET/,
    );
    const configured = loadConfig({ ...secrets, GITHUB_CLIENT_ID: 'id', GITHUB_CLIENT_SECRET: 'secret' });
    expect(configured).toMatchObject({ production: true, authMode: 'github' });
  });

  it('believes X-Forwarded-For only from the proxies it is told of (loopback by default in production)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 10.1.0.0/16' }).trustProxy).toEqual([
      '10.0.0.2',
      '10.1.0.0/16',
    ]);
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: 'a'.repeat(64),
      ADMIN_PASSWORD: 'a-long-admin-password',
      DATABASE_URL: 'postgres://127.0.0.1:5432/slipway',
      GITHUB_CLIENT_ID: 'id',
      GITHUB_CLIENT_SECRET: 'secret',
    };
    expect(loadConfig(production).trustProxy).toEqual(['loopback']);
    expect(loadConfig({ ...production, TRUST_PROXY: 'none' }).trustProxy).toBe(false);
  });

  it('resolves DATA_DIR and LOCAL_REPOS_DIR against the repository root, whatever the working directory', () => {
    // This file is apps/server/src/config/config.test.ts.
    expect(REPOSITORY_ROOT).toBe(path.resolve(import.meta.dirname, '../../../..') + path.sep);
    const defaults = loadConfig({});
    expect(defaults.dataDir).toBe(path.join(REPOSITORY_ROOT, '.slipway'));
    expect(defaults.localReposDir).toBe(path.join(REPOSITORY_ROOT, '.slipway', 'repos'));
    const relative = loadConfig({ DATA_DIR: 'var/slipway', LOCAL_REPOS_DIR: 'git' }, { root: '/srv/app' });
    expect(relative).toMatchObject({ dataDir: '/srv/app/var/slipway', localReposDir: '/srv/app/git' });
    expect(loadConfig({ DATA_DIR: 'data' }, { root: '/srv/app' }).localReposDir).toBe('/srv/app/data/repos');
    expect(loadConfig({ DATA_DIR: '/var/lib/slipway' }, { root: '/srv/app' }).dataDir).toBe(
      '/var/lib/slipway',
    );
    const cwd = process.cwd();
    try {
      process.chdir(path.join(REPOSITORY_ROOT, 'apps', 'server'));
      expect(loadConfig({}).dataDir).toBe(path.join(REPOSITORY_ROOT, '.slipway'));
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads a .env file from the repository root, the real environment winning', () => {
    expect(ENV_FILE).toBe(path.join(REPOSITORY_ROOT, '.env'));
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-env-'));
    dirs.push(dir);
    const file = path.join(dir, '.env');
    writeFileSync(file, '# comment\nPORT=4100\nLOG_LEVEL=debug\nMAIL_FROM="Ops <ops@example.com>"\n');
    const { env, loaded } = withEnvFile({ LOG_LEVEL: 'warn' }, file);
    expect(loaded).toBe(file);
    expect(loadConfig(env)).toMatchObject({
      port: 4100,
      logLevel: 'warn',
      mail: { from: 'Ops <ops@example.com>' },
    });
    expect(withEnvFile({ PORT: '1' }, path.join(dir, 'missing.env'))).toEqual({
      env: { PORT: '1' },
      loaded: undefined,
    });
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
