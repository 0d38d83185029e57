import { findVmSize } from '@slipway/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanUpWorkspaces, containersOf, deployAndWait, loopback } from '../test/deployments.js';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { readKey, startSshd } from '../test/fixtures/sshdProcess.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { createSshVmProvider } from './ssh.js';
import { openSsh } from './sshTunnel.js';
import { createVmRepository } from './vmRepository.js';

describeWith('docker')('the SSH VM provider against sshd in front of the local Docker Engine', () => {
  let repos: ReturnType<typeof createFixtureRepos>;
  let sshd: Awaited<ReturnType<typeof startSshd>>;
  let ctx: TestContext;

  beforeAll(async () => {
    repos = createFixtureRepos('operator');
    sshd = await startSshd();
    ctx = await createTestContext({
      env: {
        LOCAL_REPOS_DIR: repos.root,
        VM_PROVIDER: 'ssh',
        SSH_HOST: sshd.host,
        SSH_PORT: String(sshd.port),
        SSH_USER: sshd.user,
        SSH_PRIVATE_KEY_FILE: sshd.privateKeyFile,
      },
    });
    await ctx.platform.runs.startWorkers();
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    await sshd?.stop();
    repos?.cleanup();
  });

  it('builds and runs over SSH, health-checks through the tunnel, and keeps the key only encrypted', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const { status } = await deployAndWait(client, { repo: 'single-dockerfile' });
    expect(status.error).toBeNull();
    const url = status.data.deploymentData.metadata.urls.app!;
    expect(await (await fetch(loopback(url))).text()).toContain('single dockerfile app');

    const [vm] = await ctx.platform.db.query.vms.findMany();
    expect(vm).toMatchObject({ provider: 'ssh', status: 'running', privateIp: '127.0.0.1' });
    const data = vm!.providerData as { keyEnc: string; hostKeySha256: string };
    expect(data.hostKeySha256).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
    expect(JSON.stringify(vm)).not.toContain('OPENSSH PRIVATE KEY');
    expect(await ctx.platform.vault.decrypt(data.keyEnc)).toBe(readKey(sshd.privateKeyFile));

    // The host key seen first is pinned: a server presenting another key is refused.
    const endpoint = {
      host: sshd.host,
      port: sshd.port,
      username: sshd.user,
      privateKey: readKey(sshd.privateKeyFile),
    };
    const pinned = await openSsh({ ...endpoint, hostKeySha256: data.hostKeySha256 });
    pinned.client.end();
    expect(pinned.hostKeySha256).toBe(data.hostKeySha256);
    await expect(openSsh({ ...endpoint, hostKeySha256: 'c29tZSBvdGhlciBzZXJ2ZXI=' })).rejects.toThrow();

    const workspace = (await ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(await containersOf(workspace.id)).toHaveLength(1);
    expect((await client.delete('/api/workspace-delete/single-dockerfile')).statusCode).toBe(200);
    expect(await containersOf(workspace.id)).toHaveLength(0);
    expect(await ctx.platform.db.query.vms.findMany()).toHaveLength(0);
  });

  it('gives a workspace a VM row per node on SSH_CLUSTER_HOSTS, each host key pinned, each engine reached', async () => {
    const vmRepository = createVmRepository(ctx.platform.db);
    // Two more "servers": the same sshd twice, as nodes 2 and 3.
    const server = { host: sshd.host, port: sshd.port };
    const provider = (clusterHosts: { host: string; port: number }[]) =>
      createSshVmProvider({
        vmRepository,
        vault: ctx.platform.vault,
        host: sshd.host,
        port: sshd.port,
        username: sshd.user,
        privateKeyFile: sshd.privateKeyFile,
        clusterHosts,
      });
    const ssh = provider([server, server]);
    expect(ssh.nodeLimit.max).toBe(3);
    const user = await ctx.platform.users.upsertLocal({
      login: 'nodes-owner',
      name: 'x',
      firstName: 'x',
      lastName: 'y',
      email: null,
      whitelisted: true,
      profileCompleted: true,
    });
    const workspace = await insertWorkspace(ctx.platform, { userId: user.id, withVm: false });
    const size = findVmSize('Standard_B2ats_v2')!;

    const nodes = await ssh.ensureNodes(workspace, size, 3);
    expect(nodes.map((vm) => [vm.name, vm.nodeIndex, vm.workspaceId, vm.privateIp])).toEqual([
      [`slipway-ssh-${workspace.id}`, 1, workspace.id, sshd.host],
      [`slipway-ssh-${workspace.id}-n2`, 2, workspace.id, sshd.host],
      [`slipway-ssh-${workspace.id}-n3`, 3, workspace.id, sshd.host],
    ]);
    for (const vm of nodes) {
      expect((vm.providerData as { hostKeySha256: string }).hostKeySha256).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
      expect(JSON.stringify(vm)).not.toContain('OPENSSH PRIVATE KEY');
      const { engine, close } = await ssh.nodeEngine(vm);
      expect(engine.address).toBe(vm.privateIp);
      expect(await engine.docker.ping()).toBeTruthy();
      await close();
    }
    // Asked again: the same rows.
    expect((await ssh.ensureNodes(workspace, size, 3)).map((vm) => vm.id)).toEqual(nodes.map((vm) => vm.id));

    await expect(ssh.ensureNodes(workspace, size, 4)).rejects.toThrow(
      'This server has SSH_CLUSTER_HOSTS for 2 more nodes: a workspace runs on at most 3 nodes here',
    );
    await expect(provider([]).ensureNodes(workspace, size, 2)).rejects.toThrow(/needs SSH_CLUSTER_HOSTS/);

    await ssh.releaseNode(nodes[2]!);
    await ssh.releaseNode(nodes[1]!);
    expect((await vmRepository.listNodes(workspace.id)).map((vm) => vm.nodeIndex)).toEqual([1]);
    await ssh.delete(nodes[0]!);
    expect(await vmRepository.listNodes(workspace.id)).toEqual([]);
  });
});
