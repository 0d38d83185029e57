import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeId } from '../infra/ingress/caddyIngress.js';
import { cleanUpWorkspaces, deployAndWait } from '../test/deployments.js';
import { fetchThroughCaddy, startCaddy } from '../test/fixtures/caddyProcess.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

describeWith('docker')('HTTPS through Caddy', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let caddy: Awaited<ReturnType<typeof startCaddy>>;
  let ctx: TestContext;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    caddy = await startCaddy();
    ctx = await createTestContext({
      env: {
        LOCAL_REPOS_DIR: repos.root,
        CADDY_ADMIN_URL: caddy.adminUrl,
        INGRESS_HTTPS_PORT: String(caddy.httpsPort),
      },
    });
    await ctx.platform.runs.startWorkers();
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    await caddy?.stop();
    repos?.cleanup();
  });

  it('routes {service}-{workspace}.localhost to the service with a certificate from the internal CA', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const { status } = await deployAndWait(client, { repo: 'single-dockerfile' });
    expect(status.error).toBeNull();
    const url = status.data.deploymentData.metadata.service_url!;
    expect(url).toBe(`https://app-single-dockerfile.localhost:${caddy.httpsPort}`);

    expect(await answerOf(caddy, url)).toEqual({ status: 200, body: 'single dockerfile app\n' });

    // A redeploy replaces the workspace's one route and keeps its URL.
    const again = await deployAndWait(client, { repo: 'single-dockerfile', workflowType: 'redeploy' });
    expect(again.status.error).toBeNull();
    expect(again.status.data.deploymentData.metadata.service_url).toBe(url);

    // Caddy restarts with nothing of Slipway's: the routes are back within 30 s, on the same URL.
    await caddy.restartEmpty();
    expect((await fetchThroughCaddy(url, caddy.rootCertificate()).catch(() => null))?.status).not.toBe(200);
    const restoredAfter = Date.now();
    await ctx.platform.workers.start();
    expect(await answerOf(caddy, url, 30_000)).toEqual({ status: 200, body: 'single dockerfile app\n' });
    expect(Date.now() - restoredAfter).toBeLessThan(30_000);

    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    const id = routeId(workspace.id, 'app');
    expect(await adminStatus(`${caddy.adminUrl}/id/${id}`)).toBe(200);
    expect((await client.delete('/api/workspace-delete/single-dockerfile')).statusCode).toBe(200);
    // The route is gone with the workspace.
    expect(await adminStatus(`${caddy.adminUrl}/id/${id}`)).not.toBe(200);
  });
});

/** The first answer of `url` through Caddy, waiting for the route and the certificate up to `withinMs`. */
async function answerOf(caddy: { rootCertificate(): string }, url: string, withinMs = 15_000) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await Promise.resolve()
      .then(() => fetchThroughCaddy(url, caddy.rootCertificate()))
      .catch(() => undefined);
    if (answer?.status === 200 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Status of a Caddy admin GET on a connection of its own: a config reload closes pooled admin connections. */
function adminStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}
