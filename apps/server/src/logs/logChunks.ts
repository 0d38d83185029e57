import { and, asc, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { rowsOf } from '../infra/db/rawRows.js';
import { logChunks } from '../infra/db/schema.js';
import { type ChunkLine, chunkValues, decodeLogChunk, splitIntoChunks } from './logChunkFormat.js';

/** Line ids are `chunk id × stride + index in the chunk`: ordered by storage, like the row ids they replace. */
export const LINE_ID_STRIDE = 65_536;
/** Service output, as opposed to the engine's build logs of a deployment. */
export const SERVICE_KIND = 'service';
export const BUILD_KIND = 'build';

export type LogChunkRow = typeof logChunks.$inferSelect;

/** What a chunk's lines share: one workspace, kind, service and container (or one deployment's build). */
export interface LogChunkKey {
  userId: string;
  workspaceName: string;
  kind: string;
  service?: string;
  containerId?: string;
  deploymentId?: string | null;
}

export interface StoredChunkLine extends ChunkLine {
  id: number;
}

/** A chunk's lines, oldest first within it, with their ids. */
export function linesOf(row: LogChunkRow): StoredChunkLine[] {
  const base = row.id * LINE_ID_STRIDE + row.firstIndex;
  return decodeLogChunk(row.payload, row.lineCount).map((entry, index) => ({ ...entry, id: base + index }));
}

/** The log_chunks table: the one place that writes, reads and deletes stored log lines. */
export function createLogChunks(db: Db) {
  /** Deletes the chunks matching `where`; returns how many lines went. */
  const deleteWhere = async (where: SQL | undefined): Promise<number> => {
    const rows = await db.delete(logChunks).where(where).returning({ lines: logChunks.lineCount });
    return rows.reduce((sum, row) => sum + row.lines, 0);
  };

  return {
    /** Stores each group's lines in one INSERT (one chunk per group, more if large); returns them with ids. */
    async append(groups: { key: LogChunkKey; lines: ChunkLine[] }[]): Promise<StoredChunkLine[][]> {
      const values = groups.flatMap(({ key, lines }, group) =>
        splitIntoChunks(lines).map((chunk) => ({ group, chunk, row: { ...key, ...chunkValues(chunk) } })),
      );
      if (values.length === 0) return groups.map(() => []);
      const inserted = await db
        .insert(logChunks)
        .values(values.map((value) => value.row))
        .returning({ id: logChunks.id });
      // One INSERT takes its ids in the order of its rows.
      const ids = inserted.map((row) => row.id).sort((a, b) => a - b);
      const stored: StoredChunkLine[][] = groups.map(() => []);
      values.forEach(({ group, chunk }, index) => {
        const base = ids[index]! * LINE_ID_STRIDE;
        stored[group]!.push(...chunk.map((entry, position) => ({ ...entry, id: base + position })));
      });
      return stored;
    },

    /**
     * `count` new chunk ids from the table's own sequence, ascending: the log collector publishes lines under
     * their final ids before the INSERT that stores them ({@link insertChunks}).
     */
    async reserveIds(count: number): Promise<number[]> {
      if (count <= 0) return [];
      const result = await db.execute(
        sql`select nextval(pg_get_serial_sequence('log_chunks', 'id'))::bigint as id from generate_series(1, ${count}::int)`,
      );
      return rowsOf<{ id: number | string }>(result)
        .map((row) => Number(row.id))
        .sort((a, b) => a - b);
    },

    /** Stores chunks under ids {@link reserveIds} gave, in one INSERT. */
    async insertChunks(rows: { id: number; key: LogChunkKey; lines: ChunkLine[] }[]): Promise<void> {
      if (rows.length === 0) return;
      await db
        .insert(logChunks)
        .values(rows.map(({ id, key, lines }) => ({ id, ...key, ...chunkValues(lines) })));
    },

    /** Chunks matching `where`, newest last line first, after a cursor (the last chunk of the previous page). */
    newestFirst(where: SQL | undefined, limit: number, after?: Pick<LogChunkRow, 'lastTs' | 'id'>) {
      return db
        .select()
        .from(logChunks)
        .where(
          and(
            where,
            after &&
              sql`(${logChunks.lastTs}, ${logChunks.id}) < (${after.lastTs.toISOString()}::timestamptz, ${after.id})`,
          ),
        )
        .orderBy(desc(logChunks.lastTs), desc(logChunks.id))
        .limit(limit);
    },

    /** A deployment's build chunks in write order (`desc`: newest first), a page at a time. */
    ofDeployment(deploymentId: string, kind: string, order: 'asc' | 'desc', limit: number, pastId?: number) {
      return db
        .select()
        .from(logChunks)
        .where(
          and(
            eq(logChunks.deploymentId, deploymentId),
            eq(logChunks.kind, kind),
            pastId === undefined
              ? undefined
              : order === 'asc'
                ? sql`${logChunks.id} > ${pastId}`
                : lt(logChunks.id, pastId),
          ),
        )
        .orderBy(order === 'asc' ? asc(logChunks.id) : desc(logChunks.id))
        .limit(limit);
    },

    /** Chunk summaries (no payload), newest last line first, for retention's arithmetic. */
    summaries(where: SQL | undefined) {
      return db
        .select({
          id: logChunks.id,
          lastTs: logChunks.lastTs,
          lineCount: logChunks.lineCount,
          byteCount: logChunks.byteCount,
        })
        .from(logChunks)
        .where(where)
        .orderBy(desc(logChunks.lastTs), desc(logChunks.id));
    },

    /** Workspaces whose chunks matching `where` hold more than `limits` lines or bytes of text. */
    crowdedWorkspaces(where: SQL | undefined, limits: { lines: number; bytes: number }) {
      return db
        .select({ userId: logChunks.userId, workspaceName: logChunks.workspaceName })
        .from(logChunks)
        .where(where)
        .groupBy(logChunks.userId, logChunks.workspaceName)
        .having(
          sql`sum(${logChunks.lineCount}) > ${limits.lines} or sum(${logChunks.byteCount}) > ${limits.bytes}`,
        );
    },

    async services(where: SQL | undefined): Promise<string[]> {
      const rows = await db.selectDistinct({ service: logChunks.service }).from(logChunks).where(where);
      return rows.map((row) => row.service);
    },

    select: (where: SQL | undefined) => db.select().from(logChunks).where(where),

    delete: deleteWhere,

    /** Keeps the lines of `row` from position `from` on (their ids do not change); returns how many went. */
    async keepFrom(row: LogChunkRow, from: number): Promise<number> {
      const lines = decodeLogChunk(row.payload, row.lineCount).slice(from);
      if (lines.length === 0) return deleteWhere(eq(logChunks.id, row.id));
      if (from <= 0) return 0;
      await db
        .update(logChunks)
        .set({ ...chunkValues(lines), firstIndex: row.firstIndex + from })
        .where(eq(logChunks.id, row.id));
      return from;
    },

    /** Logs of every kind of a workspace, when the workspace goes. */
    async deleteWorkspace(userId: string, workspaceName: string): Promise<void> {
      await db
        .delete(logChunks)
        .where(and(eq(logChunks.userId, userId), eq(logChunks.workspaceName, workspaceName)));
    },

    async countLines(): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`coalesce(sum(${logChunks.lineCount}), 0)::int` })
        .from(logChunks);
      return row?.count ?? 0;
    },

    /**
     * Gives the space of deleted chunks back. A plain VACUUM makes it reusable (the table stops growing)
     * without locking out writers; VACUUM FULL (`full`) rewrites the table so the file system gets it back.
     */
    async reclaim(full: boolean): Promise<void> {
      await db.execute(full ? sql`vacuum full ${logChunks}` : sql`vacuum ${logChunks}`);
    },

    /** Bytes the log table takes on disk (heap, indexes, TOAST), for the admin panel and benchmarks. */
    async bytesOnDisk(): Promise<number> {
      const result = await db.execute(sql`select pg_total_relation_size('log_chunks')::bigint as bytes`);
      return Number(rowsOf<{ bytes: number | string }>(result)[0]?.bytes ?? 0);
    },
  };
}

export type LogChunks = ReturnType<typeof createLogChunks>;
