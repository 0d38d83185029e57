import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { PGLITE_SHARED_BUFFERS_MB, withSharedBuffers } from './pgliteEngine.js';

describe("PGlite's buffer pool", () => {
  it('is the smaller one in every database Slipway opens, and the data survives a reopen', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'slipway-pglite-'));
    try {
      for (const round of [1, 2]) {
        const database = await openDatabase({ dataDir: dir });
        const rows = async (query: ReturnType<typeof sql>) =>
          ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
        expect(await rows(sql`show shared_buffers`)).toEqual([
          { shared_buffers: `${PGLITE_SHARED_BUFFERS_MB}MB` },
        ]);
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

  it('is changed only where the build holds exactly one built-in setting', () => {
    const engine = Buffer.from('\0temp_buffers=8MB\0shared_buffers=128MB\0wal_buffers=4MB\0');
    const patched = Buffer.from(withSharedBuffers(engine, 16)!);
    expect(patched.length).toBe(engine.length);
    expect(patched.toString('latin1').split('\0').filter(Boolean)).toEqual([
      'temp_buffers=8MB',
      'shared_buffers=16MB',
      'wal_buffers=4MB',
    ]);
    expect(withSharedBuffers(Buffer.from('shared_buffers=64MB\0'), 16)).toBeUndefined();
    expect(withSharedBuffers(Buffer.concat([engine, engine]), 16)).toBeUndefined();
    expect(withSharedBuffers(engine, 1_000_000_000)).toBeUndefined();
  });
});
