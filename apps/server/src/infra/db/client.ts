import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { pgliteEngine } from './pgliteEngine.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** One type for both drivers: PGlite (embedded) and node-postgres share every query we write. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL when a URL is given, otherwise PGlite in `dataDir` (or in memory for `memory://`) with a
 * smaller buffer pool (pgliteEngine.ts), and applies the committed migrations before anything else touches it.
 */
export async function openDatabase(options: {
  url?: string | undefined;
  dataDir?: string;
  /** An idle PostgreSQL connection was closed under us (a server restart, an admin's terminate). */
  onIdleError?: (error: Error) => void;
}): Promise<Database> {
  if (options.url) {
    // node-postgres is imported only when PostgreSQL is configured; an embedded install never loads it.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // Without a listener, an idle connection that PostgreSQL closes (a restart, a failover) is an uncaught
    // error that ends the process; the pool drops that connection and the next query opens a new one.
    pool.on('error', (error) => options.onIdleError?.(error));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return { db: db as unknown as Db, driver: 'postgres', close: () => pool.end() };
  }
  const { dataDir } = options;
  const creating =
    dataDir !== undefined &&
    !dataDir.startsWith('memory://') &&
    !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (creating) {
    // Creating the database (PostgreSQL's initdb, run inside the engine) leaves the engine's memory ~17 MB
    // larger than a start on an existing one, and WebAssembly memory never shrinks: on the first start of an
    // installation the created database is closed and opened again in a fresh engine. The closed engine's
    // memory returns when V8 collects it; started by scripts/start.sh (`--expose-gc`), that is once the new
    // engine is open (right after close() PGlite still holds the old one for a moment).
    await (await openMigratedPglite(dataDir)).close();
  }
  const client = await openMigratedPglite(dataDir);
  if (creating) (globalThis as { gc?: () => void }).gc?.();
  const db = drizzlePglite(client, { schema });
  return { db: db as unknown as Db, driver: 'pglite', close: () => client.close() };
}

async function openMigratedPglite(dataDir: string | undefined): Promise<PGlite> {
  const wasmModule = await pgliteEngine();
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(wasmModule ? { wasmModule } : {}),
  });
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  return client;
}
