import pg from 'pg';
import { expect, it } from 'vitest';
import { freshPostgresDatabase } from '../../test/postgresDatabase.js';
import { describeWith, requireService } from '../../test/services.js';
import { openDatabase } from './client.js';
import { users } from './schema.js';

describeWith('postgres')('PostgreSQL closing our connections', () => {
  it('is reported, not fatal: the next query opens a new connection', async () => {
    const fresh = await freshPostgresDatabase(requireService('postgres')!);
    const reported: Error[] = [];
    const database = await openDatabase({ url: fresh.url, onIdleError: (error) => reported.push(error) });
    try {
      await database.db.select().from(users);
      // What a server restart or an administrator does to every idle connection of the database.
      const admin = new pg.Client({ connectionString: requireService('postgres') });
      await admin.connect();
      const dbName = new URL(fresh.url).pathname.slice(1);
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      await admin.end();
      await expect.poll(() => reported.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect((reported[0] as Error & { code?: string }).code).toBe('57P01');
      expect(await database.db.select().from(users)).toEqual([]);
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});
