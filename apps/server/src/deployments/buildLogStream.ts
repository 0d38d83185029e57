import type { SseChannel } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { streamWithHistory } from '../logs/logStream.js';
import type { BuildLogMessage, createBuildLogReader } from './buildLog.js';
import type { DeploymentRow } from './deploymentRepository.js';

type Line = Extract<BuildLogMessage, { type: 'line' }>;

/** A deployment's build log through the one log stream (logs/logStream.ts): service `build`, source `build`. */
export function streamBuildLog(
  deps: {
    pubsub: PubSub;
    reader: ReturnType<typeof createBuildLogReader>;
    reload: () => Promise<DeploymentRow | undefined>;
  },
  deployment: DeploymentRow,
  options: { initialLines: number; follow: boolean },
  channel: SseChannel,
) {
  return streamWithHistory<Line>({
    pubsub: deps.pubsub,
    channelName: CHANNELS.buildLogs(deployment.id),
    follow: options.follow,
    channel,
    history: async () =>
      (await deps.reader.recent(deployment.id, options.initialLines)).map((row) => ({
        type: 'line' as const,
        id: row.id,
        ts: row.ts.toISOString(),
        line: row.line,
      })),
    toLine: (message) => ({
      ts: message.ts,
      service: 'build',
      log: message.line,
      source: 'build',
      container_id: null,
    }),
    isMessage: (raw): raw is Line => (raw as Line)?.type === 'line' && typeof (raw as Line).id === 'number',
    isEnd: (raw) => (raw as BuildLogMessage)?.type === 'end',
    finishedAfterHistory: async () => {
      const status = (await deps.reload())?.status;
      return status === 'completed' || status === 'failed';
    },
  });
}
