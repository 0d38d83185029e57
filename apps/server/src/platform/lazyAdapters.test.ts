import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Packages only some configurations need; an embedded install configured for none of them loads none. */
const NOT_AT_BOOT = [
  '@azure/',
  // dockerode's transports for Docker over SSH and BuildKit sessions (infra/docker/dockerode.ts)
  'ssh2',
  '@grpc/',
  '@octokit/',
  'bullmq',
  'ioredis',
  'pg',
  'nodemailer',
  'isomorphic-git',
];

describe('adapters a configuration does not use are not imported', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-lazy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('boots the platform (Azure VMs and SMTP named but unused, local sign-in, PGlite) without loading their SDKs', () => {
    // A resolve hook in the child writes down every module URL it imports; CommonJS modules loaded by
    // require() (most of node_modules) are read from the require cache once the platform is up.
    const log = path.join(dir, 'modules.txt');
    writeFileSync(
      path.join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}`,
    );
    writeFileSync(
      path.join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});`,
    );
    const boot = `
      const { loadConfig } = await import(${JSON.stringify(pathToFileURL(path.join(SRC, 'config/config.ts')).href)});
      const { createPlatform } = await import(${JSON.stringify(pathToFileURL(path.join(SRC, 'platform/platform.ts')).href)});
      const config = loadConfig({
        NODE_ENV: 'test', DATA_DIR: ${JSON.stringify(path.join(dir, 'data'))}, LOG_LEVEL: 'silent',
        VM_PROVIDER: 'azure', AZURE_SUBSCRIPTION_ID: 'sub', AZURE_RESOURCE_GROUP: 'rg', AZURE_SUBNET_ID: '/subnets/x',
        SMTP_URL: 'smtp://127.0.0.1:1',
      });
      const platform = await createPlatform(config, { databaseInMemory: true });
      const { createRequire } = await import('node:module');
      const required = Object.keys(createRequire(process.cwd() + '/').cache);
      await platform.close();
      console.log('booted');
      console.log(JSON.stringify(required));
    `;
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--import', path.join(dir, 'register.mjs'), '--input-type=module', '--eval', boot],
      { cwd: SRC, encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 120_000 },
    );
    expect(output).toContain('booted');
    const required = JSON.parse(output.trim().split('\n').at(-1)!) as string[];
    const packages = new Set(
      [...readFileSync(log, 'utf8').split('\n'), ...required]
        .map((url) => url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1])
        .filter((name): name is string => Boolean(name)),
    );
    // The hook saw the platform's own packages (so an empty list proves nothing wrong with the hook).
    expect(packages).toContain('@electric-sql/pglite');
    expect(packages).toContain('dockerode');
    const loaded = [...packages].filter((name) =>
      NOT_AT_BOOT.some((lazy) => (lazy.endsWith('/') ? name.startsWith(lazy) : name === lazy)),
    );
    expect(loaded).toEqual([]);
  }, 150_000);
});
