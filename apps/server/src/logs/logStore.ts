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

    /** The newest `limit` lines (optionally of one service, optionally before a time), oldest first. */
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
        .orderBy(desc(logLines.id))
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
        .orderBy(desc(logLines.id))
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
     * Keeps at most `maxLines` service lines per workspace and none older than `maxAgeDays`, so a chatty
     * app cannot fill the disk. Returns how many rows went.
     */
    async prune(maxLines: number, maxAgeDays: number): Promise<number> {
      const old = await db
        .delete(logLines)
        .where(
          and(
            eq(logLines.kind, SERVICE_KIND),
            lt(logLines.ts, sql`now() - make_interval(days => ${maxAgeDays})`),
          ),
        )
        .returning({ id: logLines.id });
      let removed = old.length;
      const crowded = await db
        .select({ userId: logLines.userId, workspaceName: logLines.workspaceName })
        .from(logLines)
        .where(eq(logLines.kind, SERVICE_KIND))
        .groupBy(logLines.userId, logLines.workspaceName)
        .having(sql`count(*) > ${maxLines}`);
      for (const { userId, workspaceName } of crowded) {
        const [cutoff] = await db
          .select({ id: logLines.id })
          .from(logLines)
          .where(owned(userId, workspaceName))
          .orderBy(desc(logLines.id))
          .offset(maxLines)
          .limit(1);
        if (!cutoff) continue;
        const deleted = await db
          .delete(logLines)
          .where(and(owned(userId, workspaceName), lte(logLines.id, cutoff.id)))
          .returning({ id: logLines.id });
        removed += deleted.length;
      }
      return removed;
    },
  };
}

export type LogStore = ReturnType<typeof createLogStore>;
