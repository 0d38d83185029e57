import { describe, expect, it } from 'vitest';
import { compareTables } from '../backups/engine/partMethod.js';
import { countOf } from './countOf.js';

describe('counts in words', () => {
  it('says 1 table, 1 row and 0 or 2 of them', () => {
    expect([countOf(1, 'table'), countOf(0, 'row'), countOf(2, 'entry', 'entries')]).toEqual([
      '1 table',
      '0 rows',
      '2 entries',
    ]);
  });

  it("reads a backup's check in real plurals", () => {
    const part = {
      service: 'db',
      method: 'postgres' as const,
      volumes: ['data'],
      snapshotId: 'a'.repeat(64),
      sizeBytes: 1,
      addedBytes: 1,
      fingerprint: { kind: 'tables' as const, serverVersion: '15', tables: { 'app/public.items': 1 } },
    };
    expect(compareTables(part, { 'app/public.items': 1 })).toEqual({ ok: true, checked: '1 table, 1 row' });
    expect(compareTables(part, { 'app/public.items': 2 })).toEqual({
      ok: false,
      reason: 'Table app/public.items has 2 rows after the restore; the backup recorded 1 row',
    });
  });
});
