/**
 * The server half of bench/log-delivery.ts: a real Slipway (platform + HTTP app + log pipeline) in its own
 * process, so its memory is measured without the viewers'. Prints one JSON line when ready; answers
 * `rss` on stdin with its memory, and exits on `stop`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/config/config.js';
import { buildApp } from '../apps/server/src/platform/app.js';
import { createPlatform } from '../apps/server/src/platform/platform.js';
import { insertWorkspace } from '../apps/server/src/test/runningWorkspaces.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
});
const platform = await createPlatform(config, { logger: pino({ level: 'silent' }), databaseInMemory: true });
const app = await buildApp(platform, { webDist: path.join(dataDir, 'no-web') });
const user = await platform.users.upsertLocal({
  login: 'bench',
  name: 'bench',
  firstName: 'Bench',
  lastName: 'Mark',
  email: null,
  whitelisted: true,
  profileCompleted: true,
});
const session = await platform.sessions.create({ userId: user.id });
const workspace = await insertWorkspace(platform, { userId: user.id, name: 'bench-app' });
await platform.runningApps.start();
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
console.log(
  JSON.stringify({
    port,
    cookie: `slipway_session=${session.id}`,
    workspaceId: workspace.id,
    userId: user.id,
    workspaceName: workspace.name,
  }),
);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'rss') console.log(JSON.stringify({ rss: process.memoryUsage().rss }));
  if (line === 'stop') break;
}
await app.close();
await platform.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
