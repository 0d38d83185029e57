import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuildLogReader } from '../deployments/buildLog.js';
import type { Db } from '../infra/db/client.js';
import * as schema from '../infra/db/schema.js';
import { freshPostgresDatabase } from '../test/postgresDatabase.js';
import { requireService } from '../test/services.js';
import { DATABASES } from '../test/testPlatform.js';
import { convertLegacyLogLines } from './legacyLogLines.js';
import { createLogStore } from './logStore.js';

const migrations = fileURLToPath(new URL('../infra/db/migrations', import.meta.url));

/** The committed migrations up to 0003: a data dir from before log chunks. */
function migrationsBeforeChunks(): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'slipway-migrations-')), 'migrations');
  cpSync(migrations, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
  journal.entries = journal.entries.filter((entry: { tag: string }) => entry.tag < '0004');
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function openDriver(database: 'pglite' | 'postgres') {
  if (database === 'pglite') {
    const client = new PGlite();
    const db = drizzlePglite(client, { schema });
    return {
      db: db as unknown as Db,
      migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const fresh = await freshPostgresDatabase(requireService('postgres')!);
  const pool = new pg.Pool({ connectionString: fresh.url });
  const db = drizzlePg(pool, { schema });
  return {
    db: db as unknown as Db,
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await fresh.drop();
    },
  };
}

describe.each(DATABASES)('log lines stored before chunks (%s)', (database) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('are moved into chunks by the first start after the upgrade, in the same order', async () => {
    const driver = await openDriver(database);
    cleanups.push(driver.close);
    const before = migrationsBeforeChunks();
    cleanups.push(() => rmSync(path.dirname(before), { recursive: true, force: true }));
    await driver.migrate(before);

    const userId = '6f0c1f7e-1f1b-4a53-9a57-2d2f5b0b7a11';
    const deploymentId = '0b6c0d8e-5c1a-4a3e-8f55-3e5f1d9a2c44';
    const base = Date.now() - 60_000;
    const at = (ms: number) => new Date(base + ms).toISOString();
    // As the collector stored them: per container in batches, so ids are not in time order.
    await driver.db.execute(sql`
      insert into log_lines (user_id, workspace_name, deployment_id, kind, service, container_id, source, ts, line) values
        (${userId}, 'shop', null, 'service', 'web', 'web-1', 'stdout', ${at(0)}, 'web listening'),
        (${userId}, 'shop', null, 'service', 'web', 'web-1', 'stderr', ${at(20)}, 'GET / 500 — übel'),
        (${userId}, 'shop', null, 'service', 'worker', 'worker-1', 'stdout', ${at(10)}, 'worker ready'),
        (${userId}, 'shop', ${deploymentId}, 'build', '', null, 'stdout', ${at(1)}, '==> clone'),
        (${userId}, 'shop', ${deploymentId}, 'build', '', null, 'stdout', ${at(2)}, ''),
        (${userId}, 'shop', ${deploymentId}, 'build', '', null, 'stdout', ${at(3)}, '==> build')`);

    await driver.migrate(migrations);
    expect(await convertLegacyLogLines(driver.db)).toBe(6);

    const history = await createLogStore(driver.db).recent(userId, 'shop', { limit: 10 });
    expect(history.map((line) => [line.service, line.containerId, line.source, line.line])).toEqual([
      ['web', 'web-1', 'stdout', 'web listening'],
      ['worker', 'worker-1', 'stdout', 'worker ready'],
      ['web', 'web-1', 'stderr', 'GET / 500 — übel'],
    ]);
    expect(history[2]!.ts.toISOString()).toBe(at(20));
    const build = await createBuildLogReader(driver.db).all(deploymentId);
    expect(build.map((line) => line.line)).toEqual(['==> clone', '', '==> build']);

    // The old table is gone; a second start has nothing to do.
    const result = await driver.db.execute(sql`select to_regclass('log_lines_legacy') as name`);
    expect((result as unknown as { rows: { name: string | null }[] }).rows[0]?.name).toBeNull();
    expect(await convertLegacyLogLines(driver.db)).toBe(0);
  });
});
