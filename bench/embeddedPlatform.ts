/**
 * The real platform as `npm start` builds it on one machine (PGlite in a data directory, in-process queue),
 * with one signed-up user, for benchmarks that drive services directly rather than over HTTP.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config/config.js';
import { buildApp } from '../apps/server/src/platform/app.js';
import { createPlatform } from '../apps/server/src/platform/platform.js';

export async function startEmbeddedPlatform(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const platform = await createPlatform(config, { logger: pino({ level: 'silent' }) });
  const login = `bench-${randomBytes(4).toString('hex')}`;
  const user = await platform.users.upsertLocal({
    login,
    name: login,
    firstName: login,
    lastName: 'Bench',
    email: null,
    whitelisted: true,
    profileCompleted: true,
  });
  return {
    platform,
    userId: user.id,
    dataDir,
    async close() {
      await platform.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The same platform with its HTTP app, for benchmarks that drive Slipway over its API (with `TestClient`). */
export async function startEmbeddedApp(env: Record<string, string> = {}) {
  const embedded = await startEmbeddedPlatform(env);
  const app = await buildApp(embedded.platform, { webDist: path.join(embedded.dataDir, 'no-web') });
  await app.ready();
  return {
    ...embedded,
    app,
    async close() {
      await app.close();
      await embedded.close();
    },
  };
}
