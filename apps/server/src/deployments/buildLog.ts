import { cutIntoPieces } from '../infra/compose/buildOutput.js';
import type { Db } from '../infra/db/client.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { BUILD_KIND, createLogChunks, linesOf } from '../logs/logChunks.js';
import { createSecretMask } from '../logs/secretMasking.js';

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

/** Build output of one deployment: stored in log_chunks (kind 'build') one chunk per flush, then published. */
export function createBuildLog(deps: {
  db: Db;
  pubsub: PubSub;
  userId: string;
  workspaceName: string;
  deploymentId: string;
  redact: (text: string) => string;
  /** A batch that could not be stored or published: the run goes on, the loss is reported. */
  onError?: (error: unknown) => void;
}): BuildLog {
  const chunks = createLogChunks(deps.db);
  const key = {
    userId: deps.userId,
    workspaceName: deps.workspaceName,
    deploymentId: deps.deploymentId,
    kind: BUILD_KIND,
  };
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
        const [stored = []] = await chunks.append([
          { key, lines: batch.map((entry) => ({ ...entry, source: 'stdout' as const })) },
        ]);
        for (const row of stored) {
          const message: BuildLogMessage = {
            type: 'line',
            id: row.id,
            ts: row.ts.toISOString(),
            line: row.line,
          };
          await deps.pubsub.publish(CHANNELS.buildLogs(deps.deploymentId), message);
        }
      })
      .catch((error) => deps.onError?.(error));
    return chain;
  };

  return {
    write(text) {
      // Masked whole, then kept whole: a longer line is stored as pieces of the builds' own line length.
      for (const raw of text.split(/\r?\n/)) {
        for (const line of cutIntoPieces(deps.redact(raw))) pending.push({ ts: new Date(), line });
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

/** Chunks read per query: a build log is a few hundred flushes at most. */
const READ_PAGE = 64;

export function createBuildLogReader(db: Db) {
  const chunks = createLogChunks(db);
  return {
    /** The newest `limit` lines of a deployment's build log, oldest first (in write order). */
    async recent(deploymentId: string, limit: number) {
      if (limit <= 0) return [];
      const newestFirst: { id: number; ts: Date; line: string }[] = [];
      let pastId: number | undefined;
      while (newestFirst.length < limit) {
        const page = await chunks.ofDeployment(deploymentId, BUILD_KIND, 'desc', READ_PAGE, pastId);
        for (const row of page) newestFirst.push(...linesOf(row).reverse());
        pastId = page.at(-1)?.id;
        if (page.length < READ_PAGE) break;
      }
      return newestFirst
        .slice(0, limit)
        .reverse()
        .map(({ id, ts, line }) => ({ id, ts, line }));
    },
    /** The whole build log of a deployment, in write order. */
    async all(deploymentId: string) {
      const lines: { id: number; ts: Date; line: string }[] = [];
      let pastId: number | undefined;
      for (;;) {
        const page = await chunks.ofDeployment(deploymentId, BUILD_KIND, 'asc', READ_PAGE, pastId);
        for (const row of page) lines.push(...linesOf(row).map(({ id, ts, line }) => ({ id, ts, line })));
        pastId = page.at(-1)?.id;
        if (page.length < READ_PAGE) return lines;
      }
    },
  };
}
