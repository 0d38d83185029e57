import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config/config.js';
import { withEnvFile } from './config/envFile.js';
import { reloadResetWarning } from './infra/ingress/reloadSafety.js';
import { buildApp } from './platform/app.js';
import { DataDirLockedError, lockDataDir } from './platform/dataDirLock.js';
import { createPlatform } from './platform/platform.js';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    // The repository root's `.env`, if there is one; variables of the real environment win.
    config = loadConfig(withEnvFile(process.env).env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before anything in the data directory is opened: a second process on it exits here.
  try {
    await lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const platform = await createPlatform(config);
  const app = await buildApp(platform);

  if (platform.secrets.adminPasswordGenerated) {
    // Printed once, on the first start of an embedded install; it is kept in the data directory.
    console.log(`\n  Admin password (shown once): ${platform.secrets.adminPassword}\n`);
  }
  await app.listen({ host: config.host, port: config.port });
  // Caddy's permission question goes to the port really listened on (PORT=0 picks one only now).
  platform.listeningOn((app.server.address() as AddressInfo).port);
  await platform.runningApps.start();
  // Durable runs (deployments, backups, restores), and the reaper that takes over those a stopped process left.
  await platform.workers.start();
  // Pushes (GitHub's webhook, or new local branch heads) become deployments, in one replica.
  platform.deployOnPush.start();
  // Workspaces whose subscription lapsed beyond the grace period are stopped, hourly, in one replica.
  platform.lapseSweeper.start();
  // Deletions that did not finish (the engine did not answer, or the server stopped) are tried again, in one replica.
  platform.deletionRetries.start();
  // Custom domains whose check is due (pending ones backing off, verified ones daily), in one replica.
  platform.customDomains.start();
  await platform.customDomains.listen();
  // Pull request events become previews: deployed, reported, removed; idle ones swept hourly; in one replica.
  platform.previews.start();
  // Backups: what a crash interrupted is resumed and failed first; then scheduled backups, in one replica.
  await platform.backups.recover();
  platform.backups.start();
  const reloadWarning = platform.ingress.kind === 'caddy' ? await reloadResetWarning() : undefined;
  if (reloadWarning) platform.logger.warn(reloadWarning);
  platform.logger.info(
    {
      url: config.publicUrl,
      mode: config.authMode,
      database: platform.database.driver,
      redis: Boolean(platform.redis),
    },
    'Slipway is running',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    platform.logger.info({ signal }, 'stopping');
    await app.close();
    await platform.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

void main();
