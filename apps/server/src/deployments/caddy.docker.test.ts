import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeId } from '../infra/ingress/caddyIngress.js';
import { startCaddy } from '../test/fixtures/caddyProcess.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { cleanUpWorkspaces, deployAndWait } from './testSupport.js';

/** GET over HTTPS to 127.0.0.1 with the given SNI/Host, trusting only Caddy's internal root. */
function fetchVia(url: string, ca: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = https.get(
      { host: '127.0.0.1', port, servername: hostname, headers: { host: hostname }, path: '/', ca },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
  });
}

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
    await ctx.platform.queue.start(ctx.platform.deployments.jobHandlers);
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

    // Caddy issues the certificate on the first handshake; give it a moment.
    let answer: { status: number; body: string } | undefined;
    for (let i = 0; i < 30 && !answer; i++) {
      answer = await fetchVia(url, caddy.rootCertificate()).catch(() => undefined);
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(answer).toEqual({ status: 200, body: 'single dockerfile app\n' });

    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    const id = routeId(workspace.id, 'app');
    expect(await adminStatus(`${caddy.adminUrl}/id/${id}`)).toBe(200);
    expect((await client.delete('/api/workspace-delete/single-dockerfile')).statusCode).toBe(200);
    // The route is gone with the workspace.
    expect(await adminStatus(`${caddy.adminUrl}/id/${id}`)).not.toBe(200);
  });
});

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
