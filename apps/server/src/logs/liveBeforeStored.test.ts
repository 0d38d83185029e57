import { parseLogStreamLine } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SseChannel } from '../http/sse.js';
import { CHANNELS } from '../infra/docker/conventions.js';
import { createMemoryPubSub } from '../infra/pubsub/memoryPubSub.js';
import { insertWorkspace, waitUntil } from '../test/runningWorkspaces.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { type ServiceLogLine, toServiceLogMessage } from './logStore.js';
import { storedMark, streamServiceLogs } from './logStream.js';

/** What a viewer's browser receives: the lines' text, in order. */
function viewer() {
  const received: string[] = [];
  let closed = false;
  const channel: SseChannel = {
    send(data) {
      received.push(parseLogStreamLine(data)?.log ?? '');
      return true;
    },
    close() {
      closed = true;
    },
    get closed() {
      return closed;
    },
    onClose() {},
  };
  return { channel, received };
}

describe.each(DATABASES)('lines published before they are stored (%s)', (database) => {
  let ctx: TestContext;
  let workspace: WorkspaceRow;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    const { userId } = await signInNewUser(ctx);
    workspace = await insertWorkspace(ctx.platform, { userId });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('reach a viewer who joined while they were being stored once, in order, after its history', async () => {
    const store = ctx.platform.runningApps.logStore;
    const pubsub = createMemoryPubSub();
    const channelName = CHANNELS.serviceLogs(workspace.id);
    const ids = store.chunkIds();
    const line = (text: string, offsetMs: number): ServiceLogLine => ({
      userId: workspace.userId,
      workspaceName: workspace.name,
      service: 'web',
      containerId: 'web-1',
      source: 'stdout',
      ts: new Date(Date.now() - 60_000 + offsetMs),
      line: text,
    });
    // What the collector does: publish at once, store later, then say so.
    const publish = async (texts: string[], offsetMs: number) => {
      const prepared = await store.prepareBatch(
        texts.map((text, index) => line(text, offsetMs + index)),
        ids,
      );
      for (const stored of prepared.lines) await pubsub.publish(channelName, toServiceLogMessage(stored));
      return async () => {
        await prepared.store();
        await pubsub.publish(channelName, storedMark(prepared.lines.at(-1)!.id));
      };
    };

    await store.insertBatch([line('stored before', 0)]);
    const storeInFlight = await publish(['in flight 1', 'in flight 2'], 100);

    const { channel, received } = viewer();
    await streamServiceLogs(
      { pubsub, logStore: store },
      workspace,
      { initialLines: 100, follow: true },
      channel,
    );
    // Its history was read before the batch in flight was stored.
    expect(received).toEqual(['stored before']);

    const storeLive = await publish(['live 1'], 200);
    await storeInFlight();
    await waitUntil(() => received.length >= 3, 10_000, 'the caught-up lines');
    await storeLive();
    await waitUntil(() => received.length >= 4, 10_000, 'the held live line');
    const storeNext = await publish(['live 2'], 300);
    await waitUntil(() => received.length >= 5, 10_000, 'the next live line, before it is stored');
    await storeNext();

    // Another viewer joining now reads them all from the database: the ids are the ones published.
    const late = viewer();
    await streamServiceLogs(
      { pubsub, logStore: store },
      workspace,
      { initialLines: 100, follow: false },
      late.channel,
    );
    const expected = ['stored before', 'in flight 1', 'in flight 2', 'live 1', 'live 2'];
    expect(received).toEqual(expected);
    expect(late.received).toEqual(expected);
    await pubsub.close();
  });
});
