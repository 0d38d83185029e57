import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { listCandidateContainers } from '../infra/docker/projectResources.js';
import { containersOf, deployAndWait, docker, waitForDeployment } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { fetchThroughCaddy, startCaddy } from '../test/fixtures/caddyProcess.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';

/** A web service of `replicas` busybox httpd containers, each answering `{version} {its hostname}`. */
const replicatedApp = (version: string, replicas: number, extra = '') => ({
  'compose.yaml': `services:
  web:
    image: busybox:1.36
    environment:
      VERSION: ${version}
    command: ["sh", "-c", "mkdir -p /www && echo \\"$$VERSION $$(hostname)\\" > /www/index.html && exec httpd -f -p 8080 -h /www"]
    ports: ["8080"]
    deploy:
      replicas: ${replicas}
${extra}`,
});

/**
 * Issue 32, item 1, through Caddy and the real engine: `deploy.replicas` runs that many containers, Caddy
 * balances over all of them, a replica killed under traffic and a blue/green redeploy of three replicas cost no
 * failed request.
 */
describeWith('docker')('replicas of a service behind Caddy', () => {
  // Crash alerts come from the engine's events; the slow poll stays out of the way.
  const env: Record<string, string> = {
    DEPLOY_HEALTH_TIMEOUT_SECONDS: '20',
    HEALTH_CHECK_INTERVAL_MS: '600000',
  };
  let caddy: Awaited<ReturnType<typeof startCaddy>>;
  beforeAll(async () => {
    caddy = await startCaddy();
    Object.assign(env, { CADDY_ADMIN_URL: caddy.adminUrl, INGRESS_HTTPS_PORT: String(caddy.httpsPort) });
  });
  const engine = useEngineWorld(env);
  afterAll(async () => caddy?.stop());

  const get = (url: string) =>
    fetchThroughCaddy(url, caddy.rootCertificate()).catch((error: Error) => ({
      status: 0,
      body: error.message,
    }));

  /** Requests `url` one after another until stopped; counts what did not answer 200 and what the pages said. */
  function requestAllAlong(url: string) {
    const tally = { sent: 0, failed: [] as string[], pages: new Set<string>() };
    let running = true;
    const loop = (async () => {
      while (running) {
        tally.sent++;
        const answer = await get(url);
        if (answer.status === 200) tally.pages.add(answer.body.trim());
        else tally.failed.push(`${answer.status} ${answer.body.slice(0, 80)} ${new Date().toISOString()}`);
      }
    })();
    const sentAtLeast = async (count: number) => {
      while (tally.sent < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    return {
      tally,
      sentAtLeast,
      stop: async () => {
        running = false;
        await loop;
        return tally;
      },
    };
  }

  const webReplicas = async (workspaceId: string) =>
    (await containersOf(workspaceId))
      .filter((c) => c.Labels[LABELS.composeService] === 'web')
      .sort((a, b) => Number(a.Labels[LABELS.composeNumber]) - Number(b.Labels[LABELS.composeNumber]));

  /** The pages answered through Caddy by `count` requests, one per line. */
  const pagesThroughCaddy = async (url: string, count: number) => {
    const pages = new Set<string>();
    for (let i = 0; i < count; i++) {
      const answer = await get(url);
      expect(answer.status).toBe(200);
      pages.add(answer.body.trim());
    }
    return pages;
  };

  /**
   * Requests `url` until every one of `pages` has answered (other clients' requests share Caddy's turns, so no
   * count is enough by itself), at most 100 times; returns the pages seen.
   */
  const reachesAll = async (url: string, pages: string[]) => {
    const seen = new Set<string>();
    for (let i = 0; i < 100 && !pages.every((page) => seen.has(page)); i++) {
      const answer = await get(url);
      expect(answer.status).toBe(200);
      seen.add(answer.body.trim());
    }
    return [...seen].sort();
  };

  it('runs three replicas that each answer, and Caddy reaches every one', async () => {
    engine.world.repo('shop', replicatedApp('one', 3));
    const first = await deployAndWait(engine.client, { repo: 'shop' });
    expect(first.status.error).toBeNull();
    const url = first.status.data.deploymentData.metadata.urls.web!;
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const replicas = await webReplicas(workspace.id);
    expect(replicas.map((c) => c.State)).toEqual(['running', 'running', 'running']);
    // Each replica answers on a host port of its own, with its own hostname.
    const hostnames: string[] = [];
    for (const replica of replicas) {
      const port = replica.Ports.find((p) => p.PrivatePort === 8080)!.PublicPort;
      const answer = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
      expect(answer.trim()).toBe(`one ${replica.Id.slice(0, 12)}`);
      hostnames.push(answer.trim());
    }
    expect(new Set(hostnames).size).toBe(3);
    // Caddy holds all three upstreams and turns from one to the next.
    const upstreams = workspace.serviceUpstreams.web;
    expect(Array.isArray(upstreams) && upstreams.length).toBe(3);
    expect(await reachesAll(url, hostnames)).toEqual([...hostnames].sort());
    // Health rows name each replica.
    const job = (await engine.client.get(`/api/deployment/job/${first.deploymentId}`)).json() as {
      service_states: { service: string; state: string }[];
    };
    expect(job.service_states.map((s) => s.service).sort()).toEqual(['web.1', 'web.2', 'web.3']);
  });

  it('loses no request when a replica is killed under traffic, and the crash alert names the replica', async () => {
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const url = workspace.serviceUrls.web!;
    const saved = await engine.client.put('/api/alerts/config/shop', {
      global_enabled: true,
      rules: [],
      sinks: [],
    });
    expect(saved.statusCode).toBe(200);
    const { runningApps } = engine.ctx.platform;
    await runningApps.start();
    await runningApps.healthMonitor.checkAll();
    await waitUntil(() => runningApps.healthMonitor.watchedEngines > 0, 10_000, 'the event stream');
    const traffic = requestAllAlong(url);
    await traffic.sentAtLeast(10);
    const [, second] = await webReplicas(workspace.id);
    await docker.getContainer(second!.Id).kill();
    const killedAt = traffic.tally.sent;
    await traffic.sentAtLeast(killedAt + 60);
    const tally = await traffic.stop();
    expect(tally.failed).toEqual([]);
    const number = second!.Labels[LABELS.composeNumber];
    const alerts = await waitUntil(
      async () => {
        const active = (await engine.client.get('/api/alerts-active/shop')).json() as { title: string }[];
        return active.some((alert) => alert.title === `Service web.${number} crashed`) && active;
      },
      10_000,
      'the crash alert',
    );
    expect(alerts.map((alert) => alert.title)).toContain(`Service web.${number} crashed`);
    // `docker kill` counts as a stop by hand, so the engine does not restart it as it would a crash: started
    // again here, it takes the one host port of the range left free, its own.
    await docker.getContainer(second!.Id).start();
    const port = second!.Ports.find((p) => p.PrivatePort === 8080)!.PublicPort;
    const back = await waitUntil(
      () =>
        fetch(`http://127.0.0.1:${port}/`)
          .then((r) => r.text())
          .catch(() => undefined),
      10_000,
      'the replica started again',
    );
    expect(back.trim()).toBe(`one ${second!.Id.slice(0, 12)}`);
  });

  it('redeploys three replicas blue/green without a failed request', async () => {
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const url = workspace.serviceUrls.web!;
    const traffic = requestAllAlong(url);
    await traffic.sentAtLeast(5);
    engine.world.repo('shop', replicatedApp('two', 3));
    const two = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(two.status.error).toBeNull();
    const tally = await traffic.stop();
    const log = (
      await engine.client.get('/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true')
    ).body;
    if (tally.failed.length > 0)
      console.log(
        log
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .join('\n'),
      );
    expect(tally.failed).toEqual([]);
    expect(log).toContain('Starting the new version of web beside the serving one');
    const replicas = await webReplicas(workspace.id);
    expect(replicas).toHaveLength(3);
    const now = replicas.map((r) => `two ${r.Id.slice(0, 12)}`);
    expect(await reachesAll(url, now)).toEqual(now.sort());
    expect([...tally.pages].every((page) => /^(one|two) /.test(page))).toBe(true);
    expect(await listCandidateContainers(docker, workspace.id)).toEqual([]);
  });

  /** Sets the web service's replicas through the Replicas control's route and waits for its redeploy. */
  async function scaleTo(replicas: number) {
    const sessionId = randomUUID();
    const answer = await engine.client.put('/api/workspace-service-replicas/shop/web', {
      replicas,
      sessionId,
    });
    expect(answer.statusCode).toBe(200);
    const { deploymentId } = answer.json() as { deploymentId: string };
    return waitForDeployment(engine.client, { sessionId, deploymentId });
  }

  it('scales up and down through the Replicas route, without a failed request', async () => {
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const url = workspace.serviceUrls.web!;
    const traffic = requestAllAlong(url);
    await traffic.sentAtLeast(5);

    expect((await scaleTo(5)).status.error).toBeNull();
    const five = await webReplicas(workspace.id);
    expect(five.map((c) => c.State)).toEqual(Array(5).fill('running'));
    const fivePages = five.map((r) => `two ${r.Id.slice(0, 12)}`);
    expect(await reachesAll(url, fivePages)).toEqual(fivePages.sort());
    const stored = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(stored.serviceReplicas).toEqual({ web: 5 });

    expect((await scaleTo(1)).status.error).toBeNull();
    const one = await webReplicas(workspace.id);
    expect(one).toHaveLength(1);
    expect([...(await pagesThroughCaddy(url, 3))]).toEqual([`two ${one[0]!.Id.slice(0, 12)}`]);

    const tally = await traffic.stop();
    if (tally.failed.length > 0) {
      const log = (
        await engine.client.get('/api/logs/operator/shop/stream?log_type=build&initial_lines=800&follow=true')
      ).body;
      console.log(
        log
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .join('\n'),
      );
    }
    expect(tally.failed).toEqual([]);
    // Out of range, or a service without a URL: refused before anything is stored.
    const tooMany = await engine.client.put('/api/workspace-service-replicas/shop/web', {
      replicas: 11,
      sessionId: randomUUID(),
    });
    expect(tooMany.statusCode).toBe(400);
    const unknown = await engine.client.put('/api/workspace-service-replicas/shop/nothing', {
      replicas: 2,
      sessionId: randomUUID(),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses replicas that do not fit the VM size, at the control and at deploy, with the reason', async () => {
    // 256 MB a replica: four fit the 1 GB VM, five do not.
    const reserved = `    deploy:
      resources:
        reservations:
          memory: 256M
`;
    const compose = replicatedApp('three', 1)['compose.yaml'].replace(
      / {4}deploy:\n {6}replicas: 1\n/,
      reserved,
    );
    engine.world.repo('shop', { 'compose.yaml': compose });
    const three = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(three.status.error).toBeNull();
    const refused = await engine.client.put('/api/workspace-service-replicas/shop/web', {
      replicas: 5,
      sessionId: randomUUID(),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe(
      '5 replicas of web do not fit the 1 GB RAM VM: its containers would need 1280 MB of memory, more than its 1024 MB; run fewer replicas or choose a larger VM size',
    );
    const stored = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(stored.serviceReplicas).toEqual({ web: 1 });

    engine.world.repo('big', {
      'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["httpd", "-f", "-p", "8080"]
    ports: ["8080"]
    deploy:
      replicas: 3
      resources:
        limits:
          memory: 512M
`,
    });
    const big = await deployAndWait(engine.client, { repo: 'big' });
    expect(big.status.state).toBe('failed');
    expect(big.status.error).toContain(
      '3 replicas of web do not fit the 1 GB RAM VM: its containers would need 1536 MB of memory',
    );
  });

  it('refuses replicas of a service that keeps data in a named volume, with the reason', async () => {
    engine.world.repo('notes', {
      'compose.yaml': `services:
  db:
    image: busybox:1.36
    command: ["sh", "-c", "exec nc -lk -p 5432 -e cat"]
    ports: ["5432"]
    volumes: ["pgdata:/var/lib/postgresql/data"]
    deploy:
      replicas: 2
volumes:
  pgdata:
`,
    });
    const notes = await deployAndWait(engine.client, { repo: 'notes' });
    expect(notes.status.state).toBe('failed');
    expect(notes.status.error).toContain(
      'db keeps data in the named volume pgdata: two replicas would share one data directory; run one replica',
    );
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === 'notes',
    )!;
    expect(await containersOf(workspace.id)).toEqual([]);
  });
});
