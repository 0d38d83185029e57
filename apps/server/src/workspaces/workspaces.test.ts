import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  sseReader,
  testDocker,
  waitUntil,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from './workspacesRepository.js';

const docker = testDocker();

describeWith('docker').each(DATABASES)('workspaces API and live logs (%s)', (database) => {
  let ctx: TestContext;
  let owner: { client: TestClient; userId: string };
  let stranger: { client: TestClient; userId: string };
  let workspace: WorkspaceRow;
  let baseUrl: string;

  const cookieHeader = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    owner = await signInNewUser(ctx);
    stranger = await signInNewUser(ctx);
    workspace = await insertWorkspace(ctx.platform, {
      userId: owner.userId,
      serviceUrls: { web: 'http://127.0.0.1:9/' },
    });
    await runServiceContainer(docker, workspace, 'web', 'echo web started; while true; do sleep 1; done');
    await runServiceContainer(
      docker,
      workspace,
      'worker',
      'echo worker ready; echo "worker error: boom" >&2; while true; do sleep 1; done',
    );
    await ctx.platform.runningApps.start();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await removeWorkspaceContainers(docker, workspace.id);
    await ctx?.close();
  });

  it('lists only the owner’s workspaces in the spec’s shape', async () => {
    const mine = (await owner.client.get('/api/user-workspaces')).json();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      workspace_name: workspace.name,
      repo_url: workspace.repoUrl,
      vm_config: { vm_size: 'Standard_B2ats_v2' },
      service_urls: { web: 'http://127.0.0.1:9/' },
      docker_image_name: workspace.dockerImageName,
      branch: 'main',
      repo_owner: 'octo',
      log_watcher: { status: 'active' },
    });
    expect((await stranger.client.get('/api/user-workspaces')).json()).toEqual([]);
  });

  it('collects container output with stdout/stderr and keeps the latest error', async () => {
    const logs = await waitUntil(
      async () => {
        const body = (await owner.client.get(`/api/workspace-logs/${workspace.name}?lines=50`)).json();
        return body.logs.length >= 3 ? body.logs : undefined;
      },
      15_000,
      'collected logs',
    );
    expect(logs).toContainEqual(
      expect.objectContaining({ service: 'web', message: 'web started', source: 'stdout' }),
    );
    expect(logs).toContainEqual(
      expect.objectContaining({ service: 'worker', message: 'worker error: boom', source: 'stderr' }),
    );
    const [row] = (await owner.client.get('/api/user-workspaces')).json();
    expect(row.log_watcher.last_error).toBe('worker error: boom');
    expect(row.log_watcher.last_error_time).toEqual(expect.any(String));
  });

  it('names services and shows containers and details', async () => {
    expect((await owner.client.get(`/api/workspace-services/${workspace.name}`)).json()).toEqual({
      services: ['web', 'worker'],
    });
    const details = (await owner.client.get(`/api/workspace-details/${workspace.name}`)).json();
    expect(details.containers.map((c: { service: string }) => c.service).sort()).toEqual(['web', 'worker']);
    expect(details.latest_deployment).toBeNull();
    expect(details.service_states).toEqual([
      { service: 'web', state: 'running', exit_code: null, url: 'http://127.0.0.1:9/', message: null },
      { service: 'worker', state: 'running', exit_code: null, url: null, message: null },
    ]);
  });

  it('answers 404 for another user’s workspace on every call, the stream included', async () => {
    for (const url of [
      `/api/workspace-details/${workspace.name}`,
      `/api/workspace-logs/${workspace.name}`,
      `/api/workspace-services/${workspace.name}`,
      `/api/workspace-logs-stream/${workspace.name}?follow=true`,
    ]) {
      const response = await stranger.client.get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'Workspace not found' });
    }
  });

  it('streams history then live lines, honours the service filter and passes <script> through as data', async () => {
    const response = await fetch(
      `${baseUrl}/api/workspace-logs-stream/${workspace.name}?follow=true&initial_lines=50&service=web`,
      { headers: { cookie: cookieHeader(owner.client) } },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = sseReader(response.body!);
    await waitUntil(() => stream.lines.some((line) => line.includes('web started')), 10_000, 'history');

    await runServiceContainer(docker, workspace, 'web', `echo '<script>alert(1)</script>'; sleep 30`);
    await runServiceContainer(docker, workspace, 'worker', 'echo not-for-web-viewers; sleep 30');
    const live = await waitUntil(
      () => stream.lines.find((line) => line.includes('<script>')),
      15_000,
      'live line',
    );
    const [timestamp, service, payload] = live.split('\t');
    expect(new Date(timestamp!).getTime()).toBeGreaterThan(0);
    expect(service).toBe('web');
    expect(JSON.parse(payload!)).toMatchObject({ log: '<script>alert(1)</script>', source: 'stdout' });
    expect(JSON.parse(payload!).container_id).toMatch(/^[0-9a-f]{12}$/);
    // The worker's line was stored (so it did flow) but never sent to a web-only viewer.
    await waitUntil(async () => {
      const body = (await owner.client.get(`/api/workspace-logs/${workspace.name}?lines=100`)).json();
      return body.logs.some((l: { message: string }) => l.message === 'not-for-web-viewers');
    });
    expect(stream.lines.every((line) => line.split('\t')[1] === 'web')).toBe(true);
    await stream.cancel();
  });

  it('without follow sends the history and ends', async () => {
    const response = await fetch(
      `${baseUrl}/api/workspace-logs-stream/${workspace.name}?follow=false&initial_lines=2`,
      {
        headers: { cookie: cookieHeader(owner.client) },
      },
    );
    const text = await response.text();
    const lines = text.split('\n\n').filter((event) => event.startsWith('data: '));
    expect(lines).toHaveLength(2);
  });

  it('follows each container once however many viewers there are', async () => {
    const viewers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${baseUrl}/api/workspace-logs-stream/${workspace.name}?follow=true&initial_lines=0`, {
          headers: { cookie: cookieHeader(owner.client) },
        }),
      ),
    );
    const running = await docker.listContainers({
      filters: { label: [`dev.slipway.workspace-id=${workspace.id}`] },
    });
    const followed = ctx.platform.runningApps.logPipeline
      .collectors()
      .reduce((sum, c) => sum + c.followed, 0);
    expect(followed).toBe(running.length);
    for (const viewer of viewers) await viewer.body?.cancel();
  });
});

describe('log retention', () => {
  it('keeps the newest lines per workspace and drops old ones', async () => {
    const ctx = await createTestContext();
    try {
      const { userId } = await signInNewUser(ctx);
      const store = ctx.platform.runningApps.logStore;
      const line = (i: number, ts = new Date()) => ({
        userId,
        workspaceName: 'w',
        service: 'web',
        containerId: 'abc',
        source: 'stdout' as const,
        ts,
        line: `line ${i}`,
      });
      await store.insertBatch([line(0, new Date(Date.now() - 30 * 86_400_000))]);
      await store.insertBatch(Array.from({ length: 150 }, (_, i) => line(i + 1)));
      const removed = await store.prune({ lines: 100, bytes: 1024 * 1024, days: 14 });
      expect(removed).toBe(51);
      const kept = await store.recent(userId, 'w', { limit: 1000 });
      expect(kept).toHaveLength(100);
      expect(kept[0]!.line).toBe('line 51');
      expect(kept.at(-1)!.line).toBe('line 150');
    } finally {
      await ctx.close();
    }
  });
});
