import { sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import type { ChunkLine } from './logChunkFormat.js';
import { createLogChunks, type LogChunkKey } from './logChunks.js';

/** Rows moved per transaction: a crash mid-way leaves the rest for the next start. */
const BATCH = 5000;
/** Serialises replicas that start at once: each batch is converted by exactly one of them. */
const LOCK_KEY = 0x10_9c_16;

interface LegacyRow {
  id: number | string;
  user_id: string;
  workspace_name: string;
  deployment_id: string | null;
  kind: string;
  service: string;
  container_id: string | null;
  source: string;
  ts: Date | string;
  line: string;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** One group per chunk key, in the order of the rows' ids (the order they were stored in). */
function groupRows(rows: LegacyRow[]) {
  const groups = new Map<string, { key: LogChunkKey; lines: ChunkLine[] }>();
  for (const row of rows) {
    const key: LogChunkKey = {
      userId: row.user_id,
      workspaceName: row.workspace_name,
      kind: row.kind,
      service: row.service,
      containerId: row.container_id ?? '',
      deploymentId: row.deployment_id,
    };
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, lines: [] };
    groups.set(id, group);
    group.lines.push({
      ts: new Date(row.ts),
      source: row.source === 'stderr' ? 'stderr' : 'stdout',
      line: row.line,
    });
  }
  return [...groups.values()];
}

/**
 * Moves the lines of the one-row-per-line table that migration 0004 set aside (log_lines_legacy) into
 * chunks, a batch per transaction, then drops it. Returns how many lines moved (0 once done).
 */
export async function convertLegacyLogLines(db: Db): Promise<number> {
  let moved = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
      const [table] = rowsOf<{ present: boolean }>(
        await tx.execute(sql`select to_regclass('log_lines_legacy') is not null as present`),
      );
      if (!table?.present) return true;
      const rows = rowsOf<LegacyRow>(
        await tx.execute(sql`
          select id, user_id, workspace_name, deployment_id, kind, service, container_id, source, ts, line
          from log_lines_legacy order by id limit ${BATCH}`),
      );
      if (rows.length === 0) {
        await tx.execute(sql`drop table log_lines_legacy`);
        return true;
      }
      await createLogChunks(tx as unknown as Db).append(groupRows(rows));
      await tx.execute(sql`delete from log_lines_legacy where id <= ${Number(rows.at(-1)!.id)}`);
      moved += rows.length;
      return false;
    });
    if (done) return moved;
  }
}
