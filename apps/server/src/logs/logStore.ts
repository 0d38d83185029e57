import { and, desc, eq, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { logLines } from '../infra/db/schema.js';

/** Service output (as opposed to the engine's build logs, kind 'build'). */
export const SERVICE_KIND = 'service';

export interface ServiceLogLine {
  userId: string;
  workspaceName: string;
  service: string;
  containerId: string;
  source: 'stdout' | 'stderr';
  ts: Date;
  line: string;
}

export interface StoredLogLine extends ServiceLogLine {
  id: number;
}

/** What goes out on CHANNELS.serviceLogs and to viewers: one stored line (its `id` orders history and live). */
export interface ServiceLogMessage {
  id: number;
  ts: string;
  service: string;
  log: string;
  source: 'stdout' | 'stderr';
  container_id: string;
}

export function toServiceLogMessage(line: StoredLogLine): ServiceLogMessage {
  return {
    id: line.id,
    ts: line.ts.toISOString(),
    service: line.service,
    log: line.line,
    source: line.source,
    container_id: line.containerId,
  };
}

/** Text a workspace's log store may hold by default, whatever its line count. */
export const DEFAULT_LOG_RETENTION_BYTES = 64 * 1024 * 1024;

export interface LogRetention {
  lines: number;
  bytes: number;
  days: number;
}

/** Longest line kept; a container printing megabytes on one line must not fill a row (or a browser). */
export const MAX_LINE_LENGTH = 16 * 1024;

export function createLogStore(db: Db) {
  const owned = (userId: string, workspaceName: string) =>
    and(
      eq(logLines.userId, userId),
      eq(logLines.workspaceName, workspaceName),
      eq(logLines.kind, SERVICE_KIND),
    );

  const toStored = (row: typeof logLines.$inferSelect): StoredLogLine => ({
    id: row.id,
    userId: row.userId,
    workspaceName: row.workspaceName,
    service: row.service,
    containerId: row.containerId ?? '',
    source: row.source === 'stderr' ? 'stderr' : 'stdout',
    ts: row.ts,
    line: row.line,
  });

  return {
    /** One INSERT for the whole batch; returns the rows with their ids, in order. */
    async insertBatch(lines: ServiceLogLine[]): Promise<StoredLogLine[]> {
      if (lines.length === 0) return [];
      const rows = await db
        .insert(logLines)
        .values(lines.map((line) => ({ ...line, kind: SERVICE_KIND })))
        .returning();
      return rows.map(toStored).sort((a, b) => a.id - b.id);
    },

    /**
     * The newest `limit` lines (optionally of one service, optionally before a time), oldest first, in the
     * order they were printed across services and redeploys (ids follow storage, which is per container).
     */
    async recent(
      userId: string,
      workspaceName: string,
      options: { limit: number; service?: string | undefined; before?: Date },
    ): Promise<StoredLogLine[]> {
      if (options.limit <= 0) return [];
      const rows = await db
        .select()
        .from(logLines)
        .where(
          and(
            owned(userId, workspaceName),
            options.service === undefined ? undefined : eq(logLines.service, options.service),
            options.before === undefined ? undefined : lte(logLines.ts, options.before),
          ),
        )
        .orderBy(desc(logLines.ts), desc(logLines.id))
        .limit(options.limit);
      return rows.map(toStored).reverse();
    },

    /** The time of the last stored line of a container, so re-attaching after a restart skips what we have. */
    async lastTimestamp(
      userId: string,
      workspaceName: string,
      containerId: string,
    ): Promise<Date | undefined> {
      const [row] = await db
        .select({ ts: logLines.ts })
        .from(logLines)
        .where(and(owned(userId, workspaceName), eq(logLines.containerId, containerId)))
        .orderBy(desc(logLines.ts))
        .limit(1);
      return row?.ts;
    },

    async distinctServices(userId: string, workspaceName: string): Promise<string[]> {
      const rows = await db
        .selectDistinct({ service: logLines.service })
        .from(logLines)
        .where(owned(userId, workspaceName));
      return rows.map((row) => row.service).filter(Boolean);
    },

    /**
     * Keeps at most `maxLines` service lines and `maxBytes` of text per workspace (the newest), and none
     * older than `maxAgeDays`, so a chatty app cannot fill the disk. Returns how many rows went.
     */
    async prune(retention: LogRetention): Promise<number> {
      const old = await db
        .delete(logLines)
        .where(
          and(
            eq(logLines.kind, SERVICE_KIND),
            lt(logLines.ts, sql`now() - make_interval(days => ${retention.days})`),
          ),
        )
        .returning({ id: logLines.id });
      let removed = old.length;
      const crowded = await db
        .select({ userId: logLines.userId, workspaceName: logLines.workspaceName })
        .from(logLines)
        .where(eq(logLines.kind, SERVICE_KIND))
        .groupBy(logLines.userId, logLines.workspaceName)
        .having(
          sql`count(*) > ${retention.lines} or sum(octet_length(${logLines.line})) > ${retention.bytes}`,
        );
      for (const { userId, workspaceName } of crowded) {
        // The newest line that no longer fits, by count or by the running total of text, newest first.
        const result = await db.execute(sql`
          select ts, id from (
            select ${logLines.ts} as ts, ${logLines.id} as id,
              row_number() over (order by ${logLines.ts} desc, ${logLines.id} desc) as position,
              sum(octet_length(${logLines.line})) over (order by ${logLines.ts} desc, ${logLines.id} desc) as total
            from ${logLines}
            where ${owned(userId, workspaceName)}
          ) ranked
          where position > ${retention.lines} or total > ${retention.bytes}
          order by ts desc, id desc
          limit 1`);
        const cutoff = (result as unknown as { rows: { ts: Date | string; id: number | string }[] }).rows[0];
        if (!cutoff) continue;
        const deleted = await db
          .delete(logLines)
          .where(
            and(
              owned(userId, workspaceName),
              sql`(${logLines.ts}, ${logLines.id}) <= (${new Date(cutoff.ts).toISOString()}::timestamptz, ${Number(cutoff.id)})`,
            ),
          )
          .returning({ id: logLines.id });
        removed += deleted.length;
      }
      return removed;
    },

    /**
     * Gives the space of deleted lines back. A plain VACUUM makes it reusable (the table stops growing)
     * without locking out writers; after a prune that removed more than stays (`full`), VACUUM FULL
     * rewrites the table so the file system gets the space back (a short exclusive lock on a table the
     * retention keeps small).
     */
    async reclaim(full: boolean): Promise<void> {
      await db.execute(full ? sql`vacuum full ${logLines}` : sql`vacuum ${logLines}`);
    },

    async countLines(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(logLines);
      return row?.count ?? 0;
    },

    /** Bytes the log table takes on disk (heap, indexes, TOAST), for the admin panel and benchmarks. */
    async bytesOnDisk(): Promise<number> {
      const result = await db.execute(sql`select pg_total_relation_size('log_lines')::bigint as bytes`);
      return Number((result as unknown as { rows: { bytes: number | string }[] }).rows[0]?.bytes ?? 0);
    },
  };
}

export type LogStore = ReturnType<typeof createLogStore>;
