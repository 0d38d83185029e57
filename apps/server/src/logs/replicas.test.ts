import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { buildApp } from '../platform/app.js';
import { createPlatform, type Platform } from '../platform/platform.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  sseReader,
  testDocker,
  waitUntil,
} from '../test/runningWorkspaces.js';
import { describeWith, requireService } from '../test/services.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const docker = testDocker();

/** Two server replicas on one PostgreSQL and one Redis, as in a scaled-out install. */
describeWith('redis').skipIf(!requireService('postgres'))('log streaming across replicas', () => {
  let first: TestContext;
  let second: { platform: Platform; app: FastifyInstance; dataDir: string };
  let workspace: WorkspaceRow;
  let cookie: string;

  beforeAll(async () => {
    first = await createTestContext({ database: 'postgres', redis: true });
    const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-replica-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: first.platform.config.databaseUrl!,
      REDIS_URL: first.platform.config.redisUrl!,
    });
    const platform = await createPlatform(config, {
      logger: pino({ level: 'silent' }),
      databaseInMemory: true,
    });
    second = { platform, app: await buildApp(platform, { webDist: path.join(dataDir, 'none') }), dataDir };
    const owner = await signInNewUser(first);
    cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    workspace = await insertWorkspace(first.platform, { userId: owner.userId });
    await runServiceContainer(docker, workspace, 'web', 'echo hello; while true; do sleep 1; done');
    await Promise.all([first.platform.runningApps.start(), second.platform.runningApps.start()]);
    await first.app.listen({ port: 0, host: '127.0.0.1' });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await removeWorkspaceContainers(docker, workspace.id);
    await second?.app.close();
    await second?.platform.close();
    if (second) rmSync(second.dataDir, { recursive: true, force: true });
    await first?.close();
  });

  it('runs one collector for the engine and lets a viewer on either replica see live lines', async () => {
    const followed = () =>
      [first, second]
        .flatMap((replica) => replica.platform.runningApps.logPipeline.collectors())
        .reduce((sum, collector) => sum + collector.followed, 0);
    await waitUntil(() => followed() === 1, 15_000, 'the container to be followed');

    const streams = await Promise.all(
      [first.app, second.app].map(async (app) => {
        const { port } = app.server.address() as AddressInfo;
        const response = await fetch(
          `http://127.0.0.1:${port}/api/workspace-logs-stream/${workspace.name}?follow=true&initial_lines=0`,
          { headers: { cookie } },
        );
        expect(response.status).toBe(200);
        return sseReader(response.body!);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runServiceContainer(docker, workspace, 'web', 'echo from-the-second-container; sleep 30');
    for (const stream of streams) {
      await waitUntil(
        () => stream.lines.some((line) => line.includes('from-the-second-container')),
        15_000,
        'live line',
      );
    }
    // Stored once (lines go out live only after they are stored), and read alike from either replica.
    const histories = await Promise.all(
      [first, second].map((replica) =>
        replica.platform.runningApps.logStore.recent(workspace.userId, workspace.name, { limit: 100 }),
      ),
    );
    expect(histories[1]).toEqual(histories[0]);
    expect(histories[0]!.filter((line) => line.line === 'from-the-second-container')).toHaveLength(1);
    expect(histories[0]!.map((line) => line.line)).toContain('hello');
    // Still one follower per container, whatever the number of replicas and viewers.
    await waitUntil(() => followed() === 2, 5000, 'two containers followed once each');
    for (const stream of streams) await stream.cancel();
  });
});
