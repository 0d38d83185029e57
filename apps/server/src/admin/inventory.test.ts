import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments, vms, workspaces } from '../infra/db/schema.js';
import { signInAdmin } from '../test/adminClient.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);

describe.each(DATABASES)('admin: stats, VMs and workspaces (%s)', (database) => {
  let ctx: TestContext;
  let admin: TestClient;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    // These VMs exist only as rows: the admin panel's own stored-status path is what is tested first, and the
    // provider hooks are supplied by the test that needs them.
    delete ctx.platform.admin.vmOperations.describeVm;
    delete ctx.platform.admin.vmOperations.deleteVm;
    admin = await signInAdmin(ctx);
    const { db } = ctx.platform;
    const { userId } = await signInNewUser(ctx, { login: 'linus', whitelisted: true });
    await signInNewUser(ctx, { whitelisted: false });
    const [vm] = await db
      .insert(vms)
      .values({
        name: 'slipway-vm-1',
        provider: 'local',
        userId,
        size: 'Standard_B2ats_v2',
        status: 'running',
        location: 'local',
        privateIp: '10.0.0.4',
      })
      .returning();
    await db
      .insert(vms)
      .values({ name: 'slipway-vm-2', provider: 'local', size: 'Standard_B2als_v2', status: 'stopped' });
    const [live] = await db
      .insert(workspaces)
      .values({
        userId,
        name: 'shop',
        repoOwner: 'linus',
        repoName: 'shop',
        repoUrl: 'https://github.com/linus/shop',
        branch: 'main',
        vmSize: 'Standard_B2ats_v2',
        vmId: vm!.id,
        status: 'live',
        serviceUrls: { web: 'https://web-shop.example.com' },
        dockerImageName: 'slipway/shop:abc',
      })
      .returning();
    await db.insert(workspaces).values({
      userId,
      name: 'blog',
      repoOwner: 'linus',
      repoName: 'blog',
      repoUrl: 'https://github.com/linus/blog',
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
      status: 'failed',
    });
    // The workspace's second node: a VM of its own, tied to it by its row.
    await db.insert(vms).values({
      name: 'slipway-vm-1-n2',
      provider: 'local',
      userId,
      size: 'Standard_B2ats_v2',
      status: 'running',
      location: 'local',
      privateIp: '10.0.0.5',
      workspaceId: live!.id,
      nodeIndex: 2,
    });
    const base = {
      userId,
      workspaceId: live!.id,
      workspaceName: 'shop',
      owner: 'linus',
      repo: 'shop',
      vmSize: 'Standard_B2ats_v2',
    };
    await db.insert(deployments).values([
      {
        ...base,
        sessionId: 's1',
        branch: 'main',
        status: 'succeeded',
        commitSha: 'aaa',
        createdAt: hoursAgo(50),
        finishedAt: hoursAgo(50),
      },
      {
        ...base,
        sessionId: 's2',
        branch: 'dev',
        status: 'succeeded',
        commitSha: 'bbb',
        createdAt: hoursAgo(2),
        finishedAt: hoursAgo(2),
      },
      {
        ...base,
        sessionId: 's3',
        branch: 'main',
        status: 'failed',
        commitSha: 'ccc',
        createdAt: hoursAgo(1),
        finishedAt: hoursAgo(1),
      },
    ]);
  });
  afterAll(() => ctx.close());

  it('counts users, VMs, workspaces and the last 24 hours of deployments', async () => {
    expect((await admin.get('/api/admin/stats')).json()).toEqual({
      users: { total: 2, whitelisted: 1 },
      vms: { running: 2, total: 3 },
      workspaces: { total: 2, active: 1 },
      jobs: { recent_total: 2, recent_failed: 1 },
    });
  });

  it('lists VMs with their owner, workspace, node and status text, every node of a workspace counted', async () => {
    const body = (await admin.get('/api/admin/vms')).json();
    expect(body.total_vms).toBe(3);
    const vm1 = body.vms.find((v: { vm_name: string }) => v.vm_name === 'slipway-vm-1');
    expect(vm1).toEqual({
      vm_name: 'slipway-vm-1',
      username: 'linus',
      workspace_name: 'shop',
      status: 'VM running',
      size: 'Standard_B2ats_v2',
      location: 'local',
      private_ip: '10.0.0.4',
      public_ip: null,
      created_at: expect.any(String),
      node: 1,
    });
    expect(body.vms.find((v: { vm_name: string }) => v.vm_name === 'slipway-vm-1-n2')).toMatchObject({
      workspace_name: 'shop',
      node: 2,
      private_ip: '10.0.0.5',
    });
    expect(body.vms.find((v: { vm_name: string }) => v.vm_name === 'slipway-vm-2')).toMatchObject({
      status: 'VM stopped',
      workspace_name: null,
      node: null,
    });
  });

  it('asks the VM provider for live state and deletion when one is connected', async () => {
    const deleted: string[] = [];
    ctx.platform.admin.vmOperations.describeVm = async (vm) =>
      vm.name === 'slipway-vm-2' ? 'running' : 'deallocated';
    try {
      const body = (await admin.get('/api/admin/vms')).json();
      expect(body.vms.map((v: { status: string }) => v.status).sort()).toEqual([
        'VM deallocated',
        'VM deallocated',
        'VM running',
      ]);

      const without = await admin.delete('/api/admin/vms/slipway-vm-2');
      expect(without.statusCode).toBe(503);
      expect(without.json().error).toBe('Deleting VMs is not available: no VM provider is connected');

      ctx.platform.admin.vmOperations.deleteVm = async (name) => {
        deleted.push(name);
      };
      expect((await admin.delete('/api/admin/vms/slipway-vm-2')).json()).toEqual({
        success: true,
        message: 'VM slipway-vm-2 deleted',
      });
      expect(deleted).toEqual(['slipway-vm-2']);
      expect((await admin.delete('/api/admin/vms/no-such-vm')).statusCode).toBe(404);
    } finally {
      delete ctx.platform.admin.vmOperations.describeVm;
      delete ctx.platform.admin.vmOperations.deleteVm;
    }
  });

  it('lists workspaces with their deployed versions, newest first', async () => {
    const body = (await admin.get('/api/admin/workspaces')).json();
    expect(body.total_workspaces).toBe(2);
    const shop = body.workspaces.find((w: { workspace_name: string }) => w.workspace_name === 'shop');
    expect(shop).toMatchObject({
      username: 'linus',
      service_urls: { web: 'https://web-shop.example.com' },
      docker_image_name: 'slipway/shop:abc',
      log_watcher_status: 'active',
    });
    expect(shop.deployed_versions.map((v: { commit_sha: string }) => v.commit_sha)).toEqual(['bbb', 'aaa']);
    expect(shop.deployed_versions[0]).toEqual({
      deployment_id: expect.any(String),
      commit_sha: 'bbb',
      deployed_at: expect.any(String),
      branch: 'dev',
    });
    expect(Math.abs(Date.parse(shop.deployed_versions[0].deployed_at) - hoursAgo(2).getTime())).toBeLessThan(
      10_000,
    );
    const blog = body.workspaces.find((w: { workspace_name: string }) => w.workspace_name === 'blog');
    expect(blog).toMatchObject({ log_watcher_status: 'inactive', deployed_versions: [] });
  });
});
