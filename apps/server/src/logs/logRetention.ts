import { and, eq, lt, sql } from 'drizzle-orm';
import { logChunks } from '../infra/db/schema.js';
import { type LogChunks, linesOf, SERVICE_KIND } from './logChunks.js';

/** Text a workspace's log store may hold by default, whatever its line count. */
export const DEFAULT_LOG_RETENTION_BYTES = 64 * 1024 * 1024;

export interface LogRetention {
  lines: number;
  bytes: number;
  days: number;
}

const DAY_MS = 86_400_000;

/**
 * Keeps at most `lines` service lines and `bytes` of text per workspace (the newest), and none older than
 * `days`. Whole chunks go where they can; the one chunk on a bound keeps its newest lines that fit.
 * Returns how many lines went.
 */
export async function pruneServiceLogs(chunks: LogChunks, retention: LogRetention): Promise<number> {
  const service = eq(logChunks.kind, SERVICE_KIND);
  const cutoff = new Date(Date.now() - retention.days * DAY_MS);
  let removed = await chunks.delete(and(service, lt(logChunks.lastTs, cutoff)));
  for (const row of await chunks.select(and(service, lt(logChunks.firstTs, cutoff)))) {
    // A chunk keeps its lines in write order: everything up to its last old line goes.
    const from = linesOf(row).findLastIndex((line) => line.ts < cutoff) + 1;
    removed += await chunks.keepFrom(row, from);
  }

  const crowded = await chunks.crowdedWorkspaces(service, retention);
  for (const { userId, workspaceName } of crowded) {
    const owned = and(service, eq(logChunks.userId, userId), eq(logChunks.workspaceName, workspaceName));
    // Newest first, whole chunks while they fit; the first that does not is the boundary.
    let lines = 0;
    let bytes = 0;
    let boundary: { id: number; lastTs: Date } | undefined;
    for (const chunk of await chunks.summaries(owned)) {
      if (lines + chunk.lineCount > retention.lines || bytes + chunk.byteCount > retention.bytes) {
        boundary = chunk;
        break;
      }
      lines += chunk.lineCount;
      bytes += chunk.byteCount;
    }
    if (!boundary) continue;
    removed += await chunks.delete(
      and(
        owned,
        sql`(${logChunks.lastTs}, ${logChunks.id}) < (${boundary.lastTs.toISOString()}::timestamptz, ${boundary.id})`,
      ),
    );
    const [row] = await chunks.select(eq(logChunks.id, boundary.id));
    if (!row) continue;
    const kept = linesOf(row);
    let from = kept.length;
    while (from > 0) {
      const size = Buffer.byteLength(kept[from - 1]!.line);
      if (lines + 1 > retention.lines || bytes + size > retention.bytes) break;
      lines += 1;
      bytes += size;
      from -= 1;
    }
    removed += await chunks.keepFrom(row, from);
  }
  return removed;
}
