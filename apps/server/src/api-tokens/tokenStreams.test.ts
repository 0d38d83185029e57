import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CreatedApiToken } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { apiTokens, deployments } from '../infra/db/schema.js';
import { buildApp } from '../platform/app.js';
import { createPlatform, type Platform } from '../platform/platform.js';
import { insertWorkspace, sseReader, waitUntil } from '../test/runningWorkspaces.js';
import { describeWith, requireService } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const WORKSPACE = 'streamed';
const SESSION_ID = 'sess_streamed_1';

/** An open stream (its headers came): its lines so far, and when it ended (undefined while it is open). */
async function openStream(app: FastifyInstance, url: string, token: string) {
  const { port } = app.server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status, url).toBe(200);
  const reader = sseReader(response.body!);
  const stream = { lines: reader.lines, endedAt: undefined as number | undefined, cancel: reader.cancel };
  void reader.done.then(() => {
    stream.endedAt = Date.now();
  });
  return stream;
}

async function createToken(client: TestClient, name: string, workspaces: string[] | null = null) {
  const response = await client.post('/api/api-tokens', {
    name,
    scopes: ['read'],
    expires_in_days: null,
    workspaces,
  });
  return response.json() as CreatedApiToken;
}

/** A workspace with a deployment in progress, so both its log stream and its status stream stay open. */
async function streamedWorkspace(platform: Platform, userId: string) {
  const workspace = await insertWorkspace(platform, { userId, name: WORKSPACE });
  await platform.db.insert(deployments).values({
    userId,
    workspaceId: workspace.id,
    workspaceName: WORKSPACE,
    sessionId: SESSION_ID,
    owner: 'octo',
    repo: WORKSPACE,
    branch: 'main',
    vmSize: 'Standard_B2ats_v2',
    status: 'running',
  });
}

const LOG_STREAM = `/api/workspace-logs-stream/${WORKSPACE}?follow=true&initial_lines=0`;
const STATUS_STREAM = `/api/workflow/deployment/status/${SESSION_ID}/stream`;

/** Issue 39, item 7: revoking a token reaches what is already open with it. */
describe.each(DATABASES)('streams opened with an API token (%s)', (database) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof signInNewUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    owner = await signInNewUser(ctx);
    await streamedWorkspace(ctx.platform, owner.userId);
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => ctx?.close());

  it('end within a second of the token being revoked, log and status streams alike; others stay open', async () => {
    const revoked = await createToken(owner.client, 'revoked');
    const kept = await createToken(owner.client, 'kept', [WORKSPACE]);
    const logs = await openStream(ctx.app, LOG_STREAM, revoked.token);
    const status = await openStream(ctx.app, STATUS_STREAM, revoked.token);
    const other = await openStream(ctx.app, LOG_STREAM, kept.token);
    expect(ctx.platform.apiTokens.watchedStreams()).toBe(3);

    const answer = await owner.client.delete(`/api/api-tokens/${revoked.api_token.id}`);
    expect(answer.statusCode).toBe(200);
    const revokedAt = Date.now();
    await waitUntil(() => logs.endedAt && status.endedAt, 1000, 'the revoked token’s streams to end');
    expect(logs.endedAt! - revokedAt).toBeLessThan(1000);
    expect(status.endedAt! - revokedAt).toBeLessThan(1000);
    expect(other.endedAt).toBeUndefined();
    // The ended streams' watches are gone; the other token's is kept until its stream closes.
    await waitUntil(() => ctx.platform.apiTokens.watchedStreams() === 1, 5000, 'the watches to be let go');
    await other.cancel();
    await waitUntil(() => ctx.platform.apiTokens.watchedStreams() === 0, 5000, 'the last watch to be let go');
  });

  it('ends when the token expires, and a stream is not opened with an expired token', async () => {
    const expiring = await createToken(owner.client, 'expiring');
    await ctx.platform.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() + 1500) })
      .where(eq(apiTokens.id, expiring.api_token.id));
    const logs = await openStream(ctx.app, LOG_STREAM, expiring.token);
    await waitUntil(() => logs.endedAt, 10_000, 'the stream of the expired token to end');
    const { port } = ctx.app.server.address() as AddressInfo;
    const again = await fetch(`http://127.0.0.1:${port}${LOG_STREAM}`, {
      headers: { authorization: `Bearer ${expiring.token}` },
    });
    expect(again.status).toBe(401);
  });
});

/** The revoke on one replica, the stream on another: the end goes across by pub/sub. */
describeWith('redis').skipIf(!requireService('postgres'))('a token revoked on another replica', () => {
  let first: TestContext;
  let second: { platform: Platform; app: FastifyInstance; dataDir: string };
  let owner: Awaited<ReturnType<typeof signInNewUser>>;

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
    await second.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await signInNewUser(first);
    await streamedWorkspace(first.platform, owner.userId);
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.platform.close();
    if (second) rmSync(second.dataDir, { recursive: true, force: true });
    await first?.close();
  });

  it('ends the stream there within a second', async () => {
    const token = await createToken(owner.client, 'elsewhere');
    const logs = await openStream(second.app, LOG_STREAM, token.token);
    expect((await owner.client.delete(`/api/api-tokens/${token.api_token.id}`)).statusCode).toBe(200);
    const revokedAt = Date.now();
    await waitUntil(() => logs.endedAt, 1000, 'the stream on the other replica to end');
    expect(logs.endedAt! - revokedAt).toBeLessThan(1000);
  });
});
