import { afterAll, beforeAll, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { listCandidateContainers } from '../infra/docker/projectResources.js';
import {
  containersOf,
  deployAndWait,
  docker,
  NEVER_LISTENS,
  SERVE_PAGE,
  shopVersion,
} from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { fetchThroughCaddy, startCaddy } from '../test/fixtures/caddyProcess.js';
import { describeWith } from '../test/services.js';

/**
 * Issue 15 through Caddy, the production ingress: a redeploy starts the changed web service beside the serving
 * one, switches its requests only once it answers, and a redeploy that never answers changes nothing — a
 * client requesting the page all along sees no failed request.
 */
describeWith('docker')('blue/green redeploys through Caddy', () => {
  const env: Record<string, string> = { DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' };
  let caddy: Awaited<ReturnType<typeof startCaddy>>;
  beforeAll(async () => {
    caddy = await startCaddy();
    Object.assign(env, { CADDY_ADMIN_URL: caddy.adminUrl, INGRESS_HTTPS_PORT: String(caddy.httpsPort) });
  });
  const engine = useEngineWorld(env);
  afterAll(async () => caddy?.stop());

  /** Requests `url` every 100 ms until stopped; counts what did not answer 200 and which pages were seen. */
  function requestAllAlong(url: string) {
    const tally = { sent: 0, failed: [] as string[], pages: new Set<string>() };
    let running = true;
    const loop = (async () => {
      while (running) {
        tally.sent++;
        const started = Date.now();
        const answer = await fetchThroughCaddy(url, caddy.rootCertificate()).catch((error: Error) => ({
          status: 0,
          body: error.message,
        }));
        if (answer.status === 200) tally.pages.add(answer.body.trim());
        else tally.failed.push(`${answer.status} ${answer.body.slice(0, 80)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (Date.now() - started))));
      }
    })();
    return {
      tally,
      stop: async () => {
        running = false;
        await loop;
        return tally;
      },
    };
  }

  const buildLog = async () =>
    (await engine.client.get('/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true'))
      .body;

  it('switches a verified redeploy and keeps serving through a broken one, without a failed request', async () => {
    engine.world.repo('shop', shopVersion('version one', SERVE_PAGE));
    const first = await deployAndWait(engine.client, { repo: 'shop' });
    expect(first.status.error).toBeNull();
    const url = first.status.data.deploymentData.metadata.urls.web!;
    expect(url).toBe(`https://web-shop.localhost:${caddy.httpsPort}`);
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const serviceOf = async (name: string) =>
      (await containersOf(workspace.id)).find((c) => c.Labels[LABELS.composeService] === name)!;
    const storeBefore = await serviceOf('store');
    const traffic = requestAllAlong(url);
    for (;;) {
      if (traffic.tally.pages.has('version one')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    engine.world.repo('shop', shopVersion('version two', SERVE_PAGE));
    const two = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(two.status.error).toBeNull();
    const twoLog = await buildLog();
    expect(twoLog).toContain('Starting the new version of web beside the serving one');
    expect(twoLog).toContain('Requests to web now go to the new version');
    expect(twoLog).toContain('Removed the side-by-side copy of web');
    expect((await fetchThroughCaddy(url, caddy.rootCertificate())).body).toBe('version two\n');
    const webTwo = await serviceOf('web');
    expect(webTwo.Labels[LABELS.deploymentId]).toBe(two.deploymentId);
    // The routes on record and in Caddy are the workspace's own host port again, the URL unchanged.
    const afterTwo = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(afterTwo.serviceUpstreams).toEqual(workspace.serviceUpstreams);
    expect(afterTwo.serviceUrls.web).toBe(url);

    engine.world.repo('shop', shopVersion('version three', NEVER_LISTENS));
    const broken = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(broken.status.state).toBe('failed');
    expect(broken.status.steps.find((s) => s.name === 'verify-deployment')?.status).toBe('failed');
    expect((await serviceOf('web')).Id).toBe(webTwo.Id);

    const tally = await traffic.stop();
    expect(tally.failed).toEqual([]);
    expect(tally.sent).toBeGreaterThan(20);
    expect([...tally.pages]).toEqual(['version one', 'version two']);
    // The unchanged store ran on one container throughout; no candidate is left behind.
    expect((await serviceOf('store')).Id).toBe(storeBefore.Id);
    const candidates = await listCandidateContainers(docker, workspace.id);
    expect(candidates).toEqual([]);
  });
});
