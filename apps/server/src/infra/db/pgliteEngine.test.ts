import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { PGLITE_START_OPTIONS, withStartOptions } from './pgliteEngine.js';

const SHARED_BUFFERS = { name: 'shared_buffers', builtIn: '128MB', value: '16MB' };

describe("PGlite's buffer pools", () => {
  it('are the smaller ones in every database Slipway opens, and the data survives a reopen', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-pglite-'));
    try {
      for (const round of [1, 2]) {
        const database = await openDatabase({ dataDir: dir });
        const rows = async (query: ReturnType<typeof sql>) =>
          ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
        for (const { name, value } of PGLITE_START_OPTIONS)
          expect(await rows(sql.raw(`show ${name}`))).toEqual([{ [name]: value }]);
        if (round === 1) {
          await database.db.execute(sql`create table kept (n int)`);
          await database.db.execute(sql`insert into kept values (7)`);
        } else expect(await rows(sql`select n from kept`)).toEqual([{ n: 7 }]);
        await database.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are changed only where the build holds exactly one of each built-in setting', () => {
    const engine = Buffer.from('\0temp_buffers=8MB\0shared_buffers=128MB\0wal_buffers=4MB\0');
    const patched = Buffer.from(withStartOptions(engine, PGLITE_START_OPTIONS)!);
    expect(patched.length).toBe(engine.length);
    expect(patched.toString('latin1').split('\0').filter(Boolean)).toEqual([
      'temp_buffers=8MB',
      'shared_buffers=16MB',
      'wal_buffers=1MB',
    ]);
    expect(withStartOptions(Buffer.from('shared_buffers=64MB\0'), [SHARED_BUFFERS])).toBeUndefined();
    expect(withStartOptions(Buffer.concat([engine, engine]), [SHARED_BUFFERS])).toBeUndefined();
    expect(withStartOptions(engine, [{ ...SHARED_BUFFERS, value: '1000000000MB' }])).toBeUndefined();
    // One missing setting leaves the whole engine as it comes.
    expect(withStartOptions(Buffer.from('\0shared_buffers=128MB\0'), PGLITE_START_OPTIONS)).toBeUndefined();
  });
});
