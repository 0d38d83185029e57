import { and, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { logChunks } from '../infra/db/schema.js';
import { splitIntoChunks } from './logChunkFormat.js';
import { createLogChunks, LINE_ID_STRIDE, type LogChunkRow, linesOf, SERVICE_KIND } from './logChunks.js';
import { type LogRetention, pruneServiceLogs } from './logRetention.js';

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

/** Chunks read per query while merging history: enough for a screenful of most workspaces in one round. */
const HISTORY_PAGE = 16;

const ownerKey = (userId: string, workspaceName: string) => `${userId}\u0000${workspaceName}`;

/** Newest first: by time, then by id (storage order) among lines of the same millisecond. */
const newestFirst = (a: StoredLogLine, b: StoredLogLine) => b.ts.getTime() - a.ts.getTime() || b.id - a.id;

/** A flush's lines by workspace, service and container: one chunk (or more, if large) each. */
function groupByContainer(lines: ServiceLogLine[]): Map<string, ServiceLogLine[]> {
  const groups = new Map<string, ServiceLogLine[]>();
  for (const line of lines) {
    const key = `${ownerKey(line.userId, line.workspaceName)}\u0000${line.service}\u0000${line.containerId}`;
    const group = groups.get(key);
    if (group) group.push(line);
    else groups.set(key, [line]);
  }
  return groups;
}

/**
 * Chunk ids taken from the sequence a block at a time, so a flush seldom waits on the database for them. Ids
 * only grow: a collector that stops forgets its block, since another replica may take newer ids meanwhile.
 */
export function createChunkIdBlock(reserve: (count: number) => Promise<number[]>, size = 256) {
  let ids: number[] = [];
  return {
    async take(count: number): Promise<number[]> {
      if (ids.length < count) ids = [...ids, ...(await reserve(Math.max(count, size)))];
      return ids.splice(0, count);
    },
    reset() {
      ids = [];
    },
  };
}

export type ChunkIdBlock = ReturnType<typeof createChunkIdBlock>;

export function createLogStore(db: Db) {
  const chunks = createLogChunks(db);
  const owned = (userId: string, workspaceName: string) =>
    and(
      eq(logChunks.userId, userId),
      eq(logChunks.workspaceName, workspaceName),
      eq(logChunks.kind, SERVICE_KIND),
    );

  return {
    /**
     * One INSERT for the whole batch, one chunk per workspace, service and container; returns the lines
     * with their ids in id order (the order to publish them in: viewers skip ids below the last they saw).
     */
    async insertBatch(lines: ServiceLogLine[]): Promise<StoredLogLine[]> {
      const batches = [...groupByContainer(lines).values()];
      const stored = await chunks.append(
        batches.map((group) => {
          const { userId, workspaceName, service, containerId } = group[0]!;
          return { key: { userId, workspaceName, kind: SERVICE_KIND, service, containerId }, lines: group };
        }),
      );
      return batches
        .flatMap((group, index) =>
          stored[index]!.map((line, position) => ({ ...group[position]!, id: line.id })),
        )
        .sort((a, b) => a.id - b.id);
    },

    /**
     * Gives the lines their final ids (from `ids`, which seldom asks the database) without storing them, in id
     * order: the collector publishes them at once, then stores them with `store` (one INSERT).
     */
    async prepareBatch(
      lines: ServiceLogLine[],
      ids: ChunkIdBlock,
    ): Promise<{ lines: StoredLogLine[]; store: () => Promise<void> }> {
      const planned = [...groupByContainer(lines).values()].flatMap((group) => {
        const { userId, workspaceName, service, containerId } = group[0]!;
        const key = { userId, workspaceName, kind: SERVICE_KIND, service, containerId };
        return splitIntoChunks(group).map((chunk) => ({ key, lines: chunk }));
      });
      const chunkIds = await ids.take(planned.length);
      const rows = planned.map((row, index) => ({ ...row, id: chunkIds[index]! }));
      return {
        lines: rows.flatMap((row) =>
          row.lines.map((line, position) => ({ ...line, id: row.id * LINE_ID_STRIDE + position })),
        ),
        store: () => chunks.insertChunks(rows),
      };
    },

    /** A block of chunk ids for {@link prepareBatch}; one per collector, reset when it stops. */
    chunkIds: () => createChunkIdBlock(chunks.reserveIds),

    /**
     * The stored lines of a workspace (optionally of one service) with ids in (`afterId`, `throughId`], the newest
     * `limit` of them in id order: what a viewer missed while lines it had not seen live were being stored.
     */
    async storedBetween(
      userId: string,
      workspaceName: string,
      range: { afterId: number; throughId: number; limit: number; service?: string | undefined },
    ): Promise<StoredLogLine[]> {
      if (range.limit <= 0) return [];
      const rows = await chunks.select(
        and(
          owned(userId, workspaceName),
          range.service === undefined ? undefined : eq(logChunks.service, range.service),
          gte(logChunks.id, Math.floor(range.afterId / LINE_ID_STRIDE)),
          lte(logChunks.id, Math.floor(range.throughId / LINE_ID_STRIDE)),
        ),
      );
      return rows
        .flatMap((row) =>
          linesOf(row)
            .filter((line) => line.id > range.afterId && line.id <= range.throughId)
            .map((line) => ({
              ...line,
              userId,
              workspaceName,
              service: row.service,
              containerId: row.containerId,
            })),
        )
        .sort((a, b) => a.id - b.id)
        .slice(-range.limit);
    },

    /**
     * The newest `limit` lines (optionally of one service, optionally before a time), oldest first, in the
     * order they were printed across services and redeploys: chunks are read newest first and their lines
     * merged by time, until no chunk left can hold a line newer than the oldest of the `limit` kept.
     */
    async recent(
      userId: string,
      workspaceName: string,
      options: { limit: number; service?: string | undefined; before?: Date },
    ): Promise<StoredLogLine[]> {
      if (options.limit <= 0) return [];
      const { before } = options;
      const where = and(
        owned(userId, workspaceName),
        options.service === undefined ? undefined : eq(logChunks.service, options.service),
        before === undefined ? undefined : lte(logChunks.firstTs, before),
      );
      let kept: StoredLogLine[] = [];
      let cursor: LogChunkRow | undefined;
      for (;;) {
        const page = await chunks.newestFirst(where, HISTORY_PAGE, cursor);
        for (const row of page) {
          for (const line of linesOf(row)) {
            if (before !== undefined && line.ts > before) continue;
            kept.push({ ...line, userId, workspaceName, service: row.service, containerId: row.containerId });
          }
        }
        kept = kept.sort(newestFirst).slice(0, options.limit);
        cursor = page.at(-1);
        if (page.length < HISTORY_PAGE || !cursor) break;
        // Chunks still unread end at or before the cursor's last line, and have smaller ids.
        const oldest = kept.at(-1);
        const boundary = cursor;
        const newerThanUnread =
          oldest !== undefined &&
          (oldest.ts > boundary.lastTs ||
            (oldest.ts.getTime() === boundary.lastTs.getTime() && oldest.id >= boundary.id * LINE_ID_STRIDE));
        if (kept.length === options.limit && newerThanUnread) break;
      }
      return kept.reverse();
    },

    /** The time of the last stored line of a container, so re-attaching after a restart skips what we have. */
    async lastTimestamp(
      userId: string,
      workspaceName: string,
      containerId: string,
    ): Promise<Date | undefined> {
      const [row] = await chunks.newestFirst(
        and(owned(userId, workspaceName), eq(logChunks.containerId, containerId)),
        1,
      );
      return row?.lastTs;
    },

    async distinctServices(userId: string, workspaceName: string): Promise<string[]> {
      return (await chunks.services(owned(userId, workspaceName))).filter(Boolean);
    },

    /**
     * Keeps at most `maxLines` service lines and `maxBytes` of text per workspace (the newest), and none
     * older than `maxAgeDays`, so a chatty app cannot fill the disk. Returns how many lines went.
     */
    prune: (retention: LogRetention) => pruneServiceLogs(chunks, retention),
    reclaim: chunks.reclaim,
    countLines: chunks.countLines,
    bytesOnDisk: chunks.bytesOnDisk,
  };
}

export type LogStore = ReturnType<typeof createLogStore>;
