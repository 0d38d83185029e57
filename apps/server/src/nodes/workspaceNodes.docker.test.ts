import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkspaceNodes, WorkspaceSummary } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { vms, workspaces } from '../infra/db/schema.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

/**
 * A workspace's node count through the API and its nodes' VMs through the local provider with CLUSTER_ENGINES
 * naming two engines that are not there: nodes 2 and 3 read lost, node 1 (this machine's engine) ready. The
 * node-health test against a real cluster is nodeHealth.cluster.docker.test.ts.
 */
describeWith('docker').each(DATABASES)('a workspace on several nodes (%s)', (database) => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let sockets: string;
  let ctx: TestContext;
  let client: TestClient;
  let sessionId: string;

  const nodesOf = async (name: string) => {
    const answer = await client.get(`/api/workspace-nodes/${name}`);
    expect(answer.statusCode).toBe(200);
    return answer.json() as WorkspaceNodes;
  };
  const row = async (name: string) =>
    (await ctx.platform.db.select().from(workspaces).where(eq(workspaces.name, name)))[0]!;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    sockets = mkdtempSync(path.join(tmpdir(), 'slipway-nodes-'));
    ctx = await createTestContext({
      database,
      env: {
        LOCAL_REPOS_DIR: repos.root,
        CLUSTER_ENGINES: `unix://${sockets}/n2.sock@10.250.200.12,unix://${sockets}/n3.sock@10.250.200.13`,
        CLUSTER_LOCAL_ADDRESS: '10.250.200.11',
      },
    });
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    await ctx?.close();
    repos?.cleanup();
    if (sockets) rmSync(sockets, { recursive: true, force: true });
  });

  it('stores the count a deploy request asks for, and shows it with every workspace', async () => {
    sessionId = randomUUID();
    const started = await client.post('/api/workflow/deployment/start', {
      sessionId,
      owner: 'operator',
      repo: 'no-ports',
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
      nodes: 3,
    });
    expect(started.statusCode).toBe(200);
    expect((await row('no-ports')).nodeCount).toBe(3);
    // Nothing provisioned the nodes yet (the workers are not running): each waits for the next deployment.
    expect(await nodesOf('no-ports')).toEqual({
      node_count: 3,
      nodes: [1, 2, 3].map((index) => ({
        index,
        state: 'pending',
        role: null,
        leaving: false,
        message: `Node ${index} gets its VM at the next deployment`,
      })),
    });
    const [listed] = (await client.get('/api/user-workspaces')).json() as WorkspaceSummary[];
    expect(listed).toMatchObject({ workspace_name: 'no-ports', node_count: 3 });
    expect(listed!.nodes).toHaveLength(3);
    const details = (await client.get('/api/workspace-details/no-ports')).json() as WorkspaceSummary;
    expect(details.node_count).toBe(3);

    // The count is checked before the deployment starts: more than this server has engines for is refused.
    const tooMany = await client.post('/api/workflow/deployment/start', {
      sessionId: randomUUID(),
      owner: 'operator',
      repo: 'single-dockerfile',
      branch: 'main',
      nodes: 4,
    });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().error).toBe(
      'This server has CLUSTER_ENGINES for 2 more nodes: a workspace runs on at most 3 nodes here',
    );
    expect((await client.get('/api/workspace-details/single-dockerfile')).statusCode).toBe(404);
    expect((await client.post(`/api/workflow/deployment/cancel/${sessionId}`, {})).statusCode).toBe(200);
  });

  it('sets the count in Workspace Settings without deploying, within what the server can give', async () => {
    const set = await client.put('/api/workspace-nodes/no-ports', { nodes: 2 });
    expect(set.statusCode).toBe(200);
    expect((set.json() as WorkspaceNodes).node_count).toBe(2);
    expect((await row('no-ports')).nodeCount).toBe(2);

    const refused = await client.put('/api/workspace-nodes/no-ports', { nodes: 4 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatch(/CLUSTER_ENGINES for 2 more nodes/);
    expect((await client.put('/api/workspace-nodes/no-ports', { nodes: 6 })).statusCode).toBe(400);
    expect((await row('no-ports')).nodeCount).toBe(2);
    // Another user's workspace answers as one that does not exist.
    const { client: stranger } = await signInNewUser(ctx);
    expect((await stranger.put('/api/workspace-nodes/no-ports', { nodes: 1 })).statusCode).toBe(404);
    expect((await stranger.get('/api/workspace-nodes/no-ports')).statusCode).toBe(404);
  });

  it('gives each node a VM, reads each engine, and lets the nodes beyond the count go', async () => {
    expect((await client.put('/api/workspace-nodes/no-ports', { nodes: 3 })).statusCode).toBe(200);
    const workspace = await row('no-ports');
    const nodeVms = await ctx.platform.nodes.provision(workspace);
    expect(nodeVms.map((vm) => [vm.nodeIndex, vm.workspaceId, vm.privateIp])).toEqual([
      [1, workspace.id, '127.0.0.1'],
      [2, workspace.id, '10.250.200.12'],
      [3, workspace.id, '10.250.200.13'],
    ]);
    // Provisioned again: the same VMs.
    expect((await ctx.platform.nodes.provision(workspace)).map((vm) => vm.id)).toEqual(
      nodeVms.map((vm) => vm.id),
    );
    await ctx.platform.db
      .update(workspaces)
      .set({ vmId: nodeVms[0]!.id })
      .where(eq(workspaces.id, workspace.id));

    // What a rollout hands prepareCluster: node 1 is this machine's engine at CLUSTER_LOCAL_ADDRESS.
    const { engines } = await ctx.platform.nodes.engines(await row('no-ports'));
    expect(engines.map((engine) => engine.address)).toEqual([
      '10.250.200.11',
      '10.250.200.12',
      '10.250.200.13',
    ]);

    const states = await nodesOf('no-ports');
    expect(states.nodes.map((node) => [node.index, node.state])).toEqual([
      [1, 'ready'],
      [2, 'lost'],
      [3, 'lost'],
    ]);
    expect(states.nodes[1]!.message).toBe("Node 2's engine did not answer within 2 s");
    // No path of this machine in what the owner reads.
    expect(JSON.stringify(states)).not.toContain(sockets);

    expect((await client.put('/api/workspace-nodes/no-ports', { nodes: 2 })).statusCode).toBe(200);
    const fewer = await nodesOf('no-ports');
    expect(fewer.nodes.map((node) => [node.index, node.leaving])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    await ctx.platform.nodes.releaseBeyond(await row('no-ports'));
    expect((await ctx.platform.db.select().from(vms).where(eq(vms.workspaceId, workspace.id))).length).toBe(
      2,
    );
    expect((await nodesOf('no-ports')).nodes).toHaveLength(2);
  });

  it('keeps a preview on one node', async () => {
    const parent = await row('no-ports');
    await ctx.platform.db.insert(workspaces).values({
      userId: parent.userId,
      name: 'pr-7-no-ports',
      repoOwner: 'operator',
      repoName: 'no-ports',
      repoUrl: parent.repoUrl,
      branch: 'pr/7',
      vmSize: parent.vmSize,
      previewOf: parent.id,
    });
    const refused = await client.put('/api/workspace-nodes/pr-7-no-ports', { nodes: 2 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe(
      'pr-7-no-ports is a preview: a preview runs on one node, whatever its workspace runs on',
    );
    expect((await nodesOf('pr-7-no-ports')).node_count).toBe(1);
    await ctx.platform.db.delete(workspaces).where(eq(workspaces.name, 'pr-7-no-ports'));
  });

  it('gives every node back when the workspace is deleted', async () => {
    const workspace = await row('no-ports');
    expect((await client.delete('/api/workspace-delete/no-ports')).statusCode).toBe(200);
    // Node 1 went with the workspace's runtime, node 2 with its nodes (a row left would stay, its workspace unset).
    const left = await ctx.platform.db.select().from(vms);
    expect(left.filter((vm) => vm.name.includes(workspace.id))).toEqual([]);
  });
});
