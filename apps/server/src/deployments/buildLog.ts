import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { logLines } from '../infra/db/schema.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { createSecretMask } from '../logs/secretMasking.js';

export const BUILD_KIND = 'build';
const MAX_LINE = 8 * 1024;
const FLUSH_MS = 150;

/** What goes out on CHANNELS.buildLogs: a stored line (`id` orders history and live), or the end marker. */
export type BuildLogMessage = { type: 'line'; id: number; ts: string; line: string } | { type: 'end' };

export interface BuildLog {
  /** Appends output; several lines at once are split. Secrets are masked before anything is kept. */
  write(text: string): void;
  flush(): Promise<void>;
  /** Flushes and tells live viewers the build log is complete. */
  end(): Promise<void>;
}

/** Masks the workspace's variable values in build output and errors: the mask of logs/secretMasking.ts. */
export const createRedactor = (secrets: string[]): ((text: string) => string) => createSecretMask(secrets);

/** Build output of one deployment: stored in log_lines (kind 'build') in small batches, then published. */
export function createBuildLog(deps: {
  db: Db;
  pubsub: PubSub;
  userId: string;
  workspaceName: string;
  deploymentId: string;
  redact: (text: string) => string;
}): BuildLog {
  let pending: { ts: Date; line: string }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();

  const flushNow = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return chain;
    chain = chain
      .then(async () => {
        const rows = await deps.db
          .insert(logLines)
          .values(
            batch.map((entry) => ({
              userId: deps.userId,
              workspaceName: deps.workspaceName,
              deploymentId: deps.deploymentId,
              kind: BUILD_KIND,
              ts: entry.ts,
              line: entry.line,
            })),
          )
          .returning({ id: logLines.id, ts: logLines.ts, line: logLines.line });
        for (const row of rows.sort((a, b) => a.id - b.id)) {
          const message: BuildLogMessage = {
            type: 'line',
            id: row.id,
            ts: row.ts.toISOString(),
            line: row.line,
          };
          await deps.pubsub.publish(CHANNELS.buildLogs(deps.deploymentId), message);
        }
      })
      .catch(() => {});
    return chain;
  };

  return {
    write(text) {
      for (const raw of text.split(/\r?\n/)) {
        const line = deps.redact(raw).slice(0, MAX_LINE);
        pending.push({ ts: new Date(), line });
      }
      timer ??= setTimeout(() => void flushNow(), FLUSH_MS);
    },
    flush: () => flushNow(),
    async end() {
      await flushNow();
      await deps.pubsub.publish(CHANNELS.buildLogs(deps.deploymentId), {
        type: 'end',
      } satisfies BuildLogMessage);
    },
  };
}

export function createBuildLogReader(db: Db) {
  return {
    /** The newest `limit` lines of a deployment's build log, oldest first. */
    async recent(deploymentId: string, limit: number) {
      if (limit <= 0) return [];
      const rows = await db
        .select({ id: logLines.id, ts: logLines.ts, line: logLines.line })
        .from(logLines)
        .where(and(eq(logLines.deploymentId, deploymentId), eq(logLines.kind, BUILD_KIND)))
        .orderBy(desc(logLines.id))
        .limit(limit);
      return rows.reverse();
    },
    async all(deploymentId: string) {
      return db
        .select({ id: logLines.id, line: logLines.line })
        .from(logLines)
        .where(and(eq(logLines.deploymentId, deploymentId), eq(logLines.kind, BUILD_KIND)))
        .orderBy(asc(logLines.id));
    },
  };
}
