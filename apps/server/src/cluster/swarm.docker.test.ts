import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRegistryCredentials } from '../infra/swarm/registryCredentials.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';
import { listSwarmNodes, removeNodeFromSwarm, setNodeAvailability } from '../infra/swarm/swarmMembership.js';
import { inspectService, serviceTasks } from '../infra/swarm/swarmServices.js';
import { clusterSupported, createTestCluster, type TestCluster } from '../test/cluster.js';
import { planApp, removeRepository, writeAppRepository } from '../test/clusterApp.js';
import { execIn, httpText } from '../test/clusterExec.js';
import { describeWith } from '../test/services.js';
import { type PreparedCluster, prepareCluster } from './clusterSetup.js';
import { swarmServiceName } from './composeToSwarm.js';
import type { SwarmPlan } from './swarmPlan.js';
import { applySwarmPlan } from './swarmRollout.js';
import { type ReplicaUpstream, removeWorkspaceFromCluster, workspaceUpstreams } from './swarmWorkspace.js';

/**
 * The Swarm engine on three "VMs" of this machine (test/cluster.ts): a two-service app deployed through the
 * adapter and the translation, its replicas on every node, the database reached across nodes, workspaces
 * isolated, a node lost, a failing update rolled back. Figures are printed as `cluster:` lines.
 */
const WS1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const WS2 = 'a1b2c3d4-0000-4000-8000-000000000002';
const ADDRESS_POOL = '10.252.0.0/16';

let cluster: TestCluster;
let prepared: PreparedCluster;
let plan: Awaited<ReturnType<typeof planApp>>;
const repos: string[] = [];
const figures: string[] = [];

/** Polls until `read` gives a value; the error names what was last seen (`seen`). */
async function waitUntil<T>(
  what: string,
  read: () => Promise<T | undefined>,
  ms: number,
  seen: () => unknown = () => undefined,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until)
      throw new Error(`${what}: not within ${ms} ms; last seen ${JSON.stringify(seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let lastUpstreams: ReplicaUpstream[] = [];
const webUpstreams = async () => {
  lastUpstreams = (await workspaceUpstreams(prepared.manager, prepared.nodes, WS1)).filter(
    (u) => u.service === 'web',
  );
  return lastUpstreams;
};
const lastSeen = () => lastUpstreams.map((u) => `${u.address}:${u.port} ${u.taskId}`);
const byAddress = (upstreams: ReplicaUpstream[]) => new Set(upstreams.map((u) => u.address));

/** The plan with only the web service, its variables (and health check, when given) changed. */
function webChanged(greeting: string, healthTest?: string[]): SwarmPlan {
  const web = plan.services.find((s) => s.service === 'web')!;
  const container = web.spec.TaskTemplate.ContainerSpec;
  return {
    ...plan,
    order: [['web']],
    services: [
      {
        ...web,
        spec: {
          ...web.spec,
          TaskTemplate: {
            ...web.spec.TaskTemplate,
            ContainerSpec: {
              ...container,
              Env: [
                ...(container.Env ?? []).filter((e) => !e.startsWith('GREETING=')),
                `GREETING=${greeting}`,
              ],
              ...(healthTest ? { HealthCheck: { ...container.HealthCheck!, Test: healthTest } } : {}),
            },
          },
        },
      },
    ],
  };
}

async function prepare(nodes: number) {
  const made = await createTestCluster(nodes);
  await made.load('busybox:1.36');
  const credentials = await createRegistryCredentials(made.nodes[0]!.address);
  const ready = await prepareCluster(made.nodes, {
    credentials,
    trustRegistry: made.trust,
    addressPool: ADDRESS_POOL,
  });
  return { made, ready };
}

describeWith('docker').skipIf(!clusterSupported())('Swarm on a cluster of three engines', () => {
  beforeAll(async () => {
    const started = Date.now();
    ({ made: cluster, ready: prepared } = await prepare(3));
    figures.push(
      `cluster: 3 engines created in ${cluster.createdInMs} ms; swarm and registry ready after ${Date.now() - started} ms`,
    );
    figures.push(
      `cluster: encrypted overlay ${cluster.espSupported ? 'used' : 'not available (no IPsec ESP in this kernel): plain VXLAN'}`,
    );
  });

  afterAll(async () => {
    try {
      if (prepared) {
        const engines = cluster.nodes as NodeEngine[];
        await removeWorkspaceFromCluster(prepared.manager, engines, WS1, { keepVolumes: false });
        await removeWorkspaceFromCluster(prepared.manager, engines, WS2, { keepVolumes: false });
      }
    } finally {
      await cluster?.destroy();
      for (const repo of repos) removeRepository(repo);
      console.log(figures.join('\n'));
    }
  });

  it('forms a swarm of three managers, each node ready', async () => {
    const nodes = await listSwarmNodes(prepared.manager);
    expect(nodes.map((node) => [node.role, node.state, node.availability])).toEqual([
      ['manager', 'ready', 'active'],
      ['manager', 'ready', 'active'],
      ['manager', 'ready', 'active'],
    ]);
    expect(new Set(nodes.map((node) => node.address))).toEqual(
      new Set(cluster.nodes.map((node) => node.address)),
    );
  });

  it('deploys web ×3 by digest and a database pinned with its volume; every replica answers on its node', async () => {
    const repo = writeAppRepository();
    repos.push(repo);
    const started = Date.now();
    plan = await planApp(prepared, { repo, workspaceId: WS1, tag: 'v1', encrypted: cluster.espSupported });
    const outcome = await applySwarmPlan(prepared.manager, plan, {
      repoDir: repo,
      auth: prepared.registry.auth,
    });
    expect(outcome).toEqual({ kind: 'applied', services: ['db', 'migrate', 'web'] });
    figures.push(
      `cluster: first deploy of web ×3 + db on 3 nodes in ${Date.now() - started} ms (build and push ${plan.timings.buildAndPushMs} ms, pull on every node ${plan.timings.pullMs} ms, roll out the rest)`,
    );
    expect(plan.services.every((s) => s.spec.TaskTemplate.ContainerSpec.Image.includes('@sha256:'))).toBe(
      true,
    );
    const upstreams = await waitUntil(
      'three web replicas',
      async () => {
        const found = await webUpstreams();
        return found.length === 3 ? found : undefined;
      },
      30_000,
      lastSeen,
    );
    expect(byAddress(upstreams).size).toBe(3);
    const answers = await Promise.all(
      upstreams.map((u) => httpText(`http://${u.address}:${u.port}/cgi-bin/hello`)),
    );
    for (const answer of answers) expect(answer).toMatch(/^hello from [0-9a-f]{12}\n$/);
    expect(new Set(answers).size).toBe(3);
    const db = plan.services.find((s) => s.service === 'db')!;
    expect(db.pinnedTo).toBe(prepared.nodes[0]!.id);
    const dbTasks = (await serviceTasks(prepared.manager, swarmServiceName(WS1, 'db'))).filter(
      (t) => t.state === 'running',
    );
    expect(dbTasks.map((t) => t.nodeId)).toEqual([prepared.nodes[0]!.id]);
  });

  it('lets every web replica reach the database by its service name across nodes', async () => {
    const upstreams = await webUpstreams();
    const dbNode = prepared.nodes[0]!.engine.address;
    expect(upstreams.some((u) => u.address !== dbNode)).toBe(true);
    // A replica that just started on another node learns the database's name from the overlay's gossip: an
    // app's first connections may wait for it, as they would on real VMs.
    const started = Date.now();
    const answers: string[] = [];
    let why: string[] = [];
    await waitUntil(
      'every replica reaching the database',
      async () => {
        answers.length = 0;
        for (const u of upstreams) answers.push(await httpText(`http://${u.address}:${u.port}/cgi-bin/db`));
        if (answers.every((answer) => answer === 'stored-in-volume\n')) return true;
        why = await Promise.all(
          upstreams.map(
            async (u) => `${u.address}: ${await httpText(`http://${u.address}:${u.port}/cgi-bin/why`)}`,
          ),
        );
        return undefined;
      },
      30_000,
      () => ({ answers, why }),
    );
    figures.push(
      `cluster: every web replica reached the database by name ${Date.now() - started} ms after its deploy was verified`,
    );
  });

  it("keeps a second workspace off the first one's network", async () => {
    const repo = writeAppRepository();
    repos.push(repo);
    const project = {
      services: { probe: { image: 'busybox:1.36', command: ['sleep', '3600'] } },
    };
    const second = await planApp(prepared, {
      repo,
      workspaceId: WS2,
      tag: 'v1',
      encrypted: cluster.espSupported,
      project,
    });
    expect(
      await applySwarmPlan(prepared.manager, second, { repoDir: repo, auth: prepared.registry.auth }),
    ).toEqual({
      kind: 'applied',
      services: ['probe'],
    });
    const raw = (await prepared.manager.docker.listTasks({
      filters: { service: [swarmServiceName(WS1, 'db')], 'desired-state': ['running'] },
    })) as { NetworksAttachments?: { Addresses?: string[] }[] }[];
    const dbAddress = raw[0]?.NetworksAttachments?.flatMap((n) => n.Addresses ?? [])[0]?.split('/')[0];
    expect(dbAddress).toMatch(/^10\.252\./);
    const inTask = async (workspace: string, service: string) => {
      const [task] = (await serviceTasks(prepared.manager, swarmServiceName(workspace, service))).filter(
        (t) => t.state === 'running',
      );
      const node = prepared.nodes.find((n) => n.id === task!.nodeId)!;
      return (cmd: string[]) => execIn(node.engine.docker, task!.containerId!, cmd);
    };
    const probe = await inTask(WS2, 'probe');
    const web = await inTask(WS1, 'web');
    const ask = ['sh', '-c', `nc -w 2 ${dbAddress} 5432 </dev/null`];
    expect(await web(ask)).toEqual({ exitCode: 0, output: 'stored-in-volume\n' });
    const refused = await probe(ask);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).not.toContain('stored-in-volume');
    expect((await probe(['nslookup', 'db', '127.0.0.11'])).exitCode).not.toBe(0);
  });

  it('starts the replicas of a lost node on the others within 60 s, and takes the node back', async () => {
    const upstreams = await webUpstreams();
    const victim = cluster.nodes.find(
      (node) =>
        node.address !== prepared.manager.address && upstreams.some((u) => u.address === node.address),
    )!;
    const victimId = prepared.nodes.find((n) => n.engine.address === victim.address)!.id;
    const killedAt = Date.now();
    await cluster.kill(victim);
    const survivors = await waitUntil(
      'three web replicas on the other nodes',
      async () => {
        const found = (await webUpstreams()).filter((u) => u.nodeId !== victimId);
        return found.length === 3 ? found : undefined;
      },
      60_000,
      lastSeen,
    );
    const failover = Date.now() - killedAt;
    figures.push(`cluster: node engine killed → web ×3 running on the other nodes after ${failover} ms`);
    expect(failover).toBeLessThan(60_000);
    for (const u of survivors)
      expect(await httpText(`http://${u.address}:${u.port}/cgi-bin/db`)).toBe('stored-in-volume\n');
    const lost = (await listSwarmNodes(prepared.manager)).find((node) => node.id === victimId);
    expect(lost?.state).toBe('down');
    await cluster.start(victim);
    await waitUntil(
      'the node back in the swarm',
      async () => {
        const back = (await listSwarmNodes(prepared.manager)).find((node) => node.id === victimId);
        return back?.state === 'ready' ? true : undefined;
      },
      60_000,
    );
  });

  it('marks a node whose cable is pulled down, runs its replicas elsewhere, and takes it back', async () => {
    const upstreams = await webUpstreams();
    const victim = cluster.nodes.find(
      (node) =>
        node.address !== prepared.manager.address && upstreams.some((u) => u.address === node.address),
    )!;
    const victimId = prepared.nodes.find((n) => n.engine.address === victim.address)!.id;
    await cluster.cut(victim);
    try {
      await waitUntil(
        'web ×3 off the cut node',
        async () => {
          const found = (await webUpstreams()).filter((u) => u.nodeId !== victimId);
          return found.length === 3 ? found : undefined;
        },
        60_000,
      );
      const cut = (await listSwarmNodes(prepared.manager)).find((node) => node.id === victimId);
      expect(cut?.state).toBe('down');
    } finally {
      await cluster.restore(victim);
    }
    // The cut manager campaigned alone and comes back with a higher raft term: the managers elect again, the
    // API stalls meanwhile and every node reads down for a moment. Settled means every node ready for 10 s.
    let readySince: number | undefined;
    let seen: unknown;
    const settled = Date.now();
    await waitUntil(
      'every node ready for 10 s',
      async () => {
        const nodes = await listSwarmNodes(prepared.manager).catch((error: unknown) => {
          seen = String(error); // the API stalls during the election: that is what is waited out
          return [];
        });
        if (nodes.length === 3 && nodes.every((node) => node.state === 'ready')) readySince ??= Date.now();
        else {
          seen = nodes.map((node) => `${node.address} ${node.state}`);
          readySince = undefined;
        }
        return readySince !== undefined && Date.now() - readySince >= 10_000 ? true : undefined;
      },
      120_000,
      () => seen,
    );
    figures.push(`cluster: a cut node restored: every node ready for 10 s after ${Date.now() - settled} ms`);
  });

  it('rolls a start-first update out: every replica then serves the new version', async () => {
    const started = Date.now();
    const outcome = await applySwarmPlan(prepared.manager, webChanged('hola'), {
      repoDir: repos[0]!,
      auth: prepared.registry.auth,
    });
    figures.push(`cluster: start-first update of web ×3 in ${Date.now() - started} ms`);
    expect(outcome).toEqual({ kind: 'applied', services: ['web'] });
    const upstreams = await waitUntil(
      'three replicas of the new version',
      async () => {
        const found = await webUpstreams();
        return found.length === 3 ? found : undefined;
      },
      60_000,
      lastSeen,
    );
    for (const u of upstreams) {
      expect(await httpText(`http://${u.address}:${u.port}/cgi-bin/hello`)).toMatch(/^hola from/);
    }
  });

  it('rolls a start-first update whose new version fails its health check back by itself', async () => {
    const broken = webChanged('broken', ['CMD', 'false']);
    const started = Date.now();
    const outcome = await applySwarmPlan(prepared.manager, broken, {
      repoDir: repos[0]!,
      auth: prepared.registry.auth,
      serviceMs: 120_000,
    });
    figures.push(`cluster: failing start-first update rolled back after ${Date.now() - started} ms`);
    expect(outcome.kind).toBe('rolled_back');
    const service = await inspectService(prepared.manager, swarmServiceName(WS1, 'web'));
    expect(service?.spec.TaskTemplate.ContainerSpec.Env).toContain('GREETING=hola');
    let tasksSeen: unknown;
    const upstreams = await waitUntil(
      'three healthy replicas of the old version',
      async () => {
        const found = await webUpstreams();
        const nodes = await listSwarmNodes(prepared.manager);
        tasksSeen = {
          nodes: nodes.map((n) => `${n.id.slice(0, 6)} ${n.state}`),
          tasks: (await serviceTasks(prepared.manager, swarmServiceName(WS1, 'web')))
            .slice(0, 8)
            .map(
              (t) =>
                `${t.nodeId.slice(0, 6)} ${t.state}/${t.desiredState} ${t.message} ${t.error ?? ''} ports ${JSON.stringify(t.ports)} ${t.image.slice(-6)}`,
            ),
          update: (await inspectService(prepared.manager, swarmServiceName(WS1, 'web')))?.update,
        };
        return found.length === 3 ? found : undefined;
      },
      60_000,
      () => tasksSeen,
    );
    for (const u of upstreams)
      expect(await httpText(`http://${u.address}:${u.port}/cgi-bin/hello`)).toMatch(/^hola from/);
  });

  it('drains a node (its replicas start on the others) and then removes it, the swarm going on', async () => {
    const node = cluster.nodes[2]!;
    const nodeId = prepared.nodes.find((n) => n.engine.address === node.address)!.id;
    await setNodeAvailability(prepared.manager, nodeId, 'drain');
    const moved = await waitUntil(
      'web off the drained node',
      async () => {
        const found = await webUpstreams();
        return found.length === 3 && found.every((u) => u.nodeId !== nodeId) ? found : undefined;
      },
      60_000,
      lastSeen,
    );
    for (const u of moved)
      expect(await httpText(`http://${u.address}:${u.port}/cgi-bin/db`)).toBe('stored-in-volume\n');
    await removeNodeFromSwarm(prepared.manager, nodeId, node);
    const left = await listSwarmNodes(prepared.manager);
    expect(left.map((n) => n.id)).not.toContain(nodeId);
    expect(left.filter((n) => n.state === 'ready')).toHaveLength(2);
    expect((await webUpstreams()).length).toBe(3);
  });
});

describeWith('docker').skipIf(!clusterSupported())('Swarm on one engine, for comparison', () => {
  let single: TestCluster | undefined;
  let repo: string | undefined;
  afterAll(async () => {
    await single?.destroy();
    if (repo) removeRepository(repo);
  });

  it('deploys the same app on one node', async () => {
    const { made, ready } = await prepare(1);
    single = made;
    repo = writeAppRepository();
    const started = Date.now();
    const onePlan = await planApp(ready, { repo, workspaceId: WS1, tag: 'v1', encrypted: false });
    expect(
      await applySwarmPlan(ready.manager, onePlan, { repoDir: repo, auth: ready.registry.auth }),
    ).toEqual({
      kind: 'applied',
      services: ['db', 'migrate', 'web'],
    });
    console.log(
      `cluster: first deploy of web ×3 + db on 1 node in ${Date.now() - started} ms (build and push ${onePlan.timings.buildAndPushMs} ms, pull ${onePlan.timings.pullMs} ms, roll out the rest)`,
    );
    const upstreams = (await workspaceUpstreams(ready.manager, ready.nodes, WS1)).filter(
      (u) => u.service === 'web',
    );
    expect(upstreams).toHaveLength(3);
    for (const u of upstreams)
      expect(await httpText(`http://${u.address}:${u.port}/cgi-bin/db`)).toBe('stored-in-volume\n');
  });
});
