import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseLogStreamLine } from '@slipway/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listProjectContainers, listWorkspaceImages } from '../infra/docker/projectResources.js';
import { cleanUpWorkspaces, deployAndWait, docker } from '../test/deployments.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

/** Reads an SSE response over real HTTP until the server closes it; returns the `data:` payloads. */
function readSse(url: string, cookie: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}`));
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve(
            text
              .split('\n\n')
              .filter((chunk) => chunk.startsWith('data: '))
              .map((chunk) => chunk.slice(6)),
          ),
        );
      })
      .on('error', reject);
  });
}

// BullMQ on Redis, PostgreSQL, and the status and build-log streams followed live over real HTTP through
// Redis pub/sub, as a replica that does not run the job would serve them.
describeWith('redis')('live workflow streams with Redis and BullMQ', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    ctx = await createTestContext({
      database: 'postgres',
      redis: true,
      env: { LOCAL_REPOS_DIR: repos.root, DEPLOY_KEEP_VERSIONS: '1' },
    });
    await ctx.platform.runs.startWorkers();
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    repos?.cleanup();
  });

  it('streams status changes and build output as they happen, then closes', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const sessionId = crypto.randomUUID();
    const started = await client.post('/api/workflow/deployment/start', {
      sessionId,
      owner: 'operator',
      repo: 'single-dockerfile',
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
    });
    expect(started.statusCode).toBe(200);
    const [statusEvents, buildData] = await Promise.all([
      readSse(`${base}/api/workflow/deployment/status/${sessionId}/stream`, cookie),
      readSse(
        `${base}/api/logs/operator/single-dockerfile/stream?log_type=build&initial_lines=10&follow=true`,
        cookie,
      ),
    ]);
    const events = statusEvents.map((data) => JSON.parse(data) as { type: string; currentStepName?: string });
    const buildLines = buildData.map((data) => parseLogStreamLine(data)?.log);
    expect(events[0]).toEqual({ type: 'connected', sessionId });
    expect(events.at(-1)).toMatchObject({ type: 'finished', state: 'completed', workflowComplete: true });
    // Live updates arrived step by step, not only the final state.
    const stepsSeen = new Set(events.filter((e) => e.type === 'status').map((e) => e.currentStepName));
    expect(stepsSeen.size).toBeGreaterThanOrEqual(5);
    expect(buildLines).toContain('==> deploy-application: Build the images and start the containers');
    expect(buildLines.at(-1)).toBe('Deployment is live');
    // Exactly the stored log from where the history began: no line lost or doubled at the seam.
    const deploymentId = (started.json() as { deploymentId: string }).deploymentId;
    const stored = (await ctx.platform.deployments.buildLogs.all(deploymentId)).map((row) => row.line);
    expect(buildLines.length).toBeGreaterThanOrEqual(Math.min(stored.length, 11));
    expect(buildLines).toEqual(stored.slice(stored.length - buildLines.length));

    // A redeploy of the same Dockerfile builds the image the app runs already: it keeps that image's name, so
    // Compose leaves its container running, and the new build's name is taken off again.
    const workspaceId = (await ctx.platform.db.query.workspaces.findMany())[0]!.id;
    const containerBefore = (await listProjectContainers(docker, workspaceId))[0]!;
    const again = await deployAndWait(client, { repo: 'single-dockerfile', workflowType: 'redeploy' });
    expect(again.status.state).toBe('completed');
    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    const images = await listWorkspaceImages(docker, workspace.id);
    expect(images.flatMap((image) => image.RepoTags ?? [])).toEqual([
      `slipway-${workspace.id}-app:${deploymentId}`,
    ]);
    expect((await listProjectContainers(docker, workspace.id)).map((c) => c.Id)).toEqual([
      containerBefore.Id,
    ]);
    expect(
      (await ctx.platform.deployments.buildLogs.all(again.deploymentId)).map((row) => row.line),
    ).toContain('app: unchanged, left running');
  });
});
