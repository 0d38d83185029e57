import { existsSync } from 'node:fs';
import path from 'node:path';
import { NO_PORTS_MESSAGE, NON_DOCKERIZED_MESSAGE, type WorkflowStatus } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envVariables, logChunks } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listWorkspaceImages } from '../infra/docker/projectResources.js';
import {
  cleanUpWorkspaces,
  containersOf,
  deployAndWait,
  docker,
  loopback,
  streamedLogLines,
} from '../test/deployments.js';
import { createFixtureRepos, HOSTILE_BRANCH } from '../test/fixtures/fixtureRepos.js';
import { describeWith, requireService } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import {
  createTestContext,
  signInNewUser,
  type TestContext,
  type TestPlatformOptions,
} from '../test/testPlatform.js';
import { ENV_UNREADABLE_MESSAGE } from './deploymentRun.js';

const SECRETS = {
  MULTI_LINE: 'line one\nline "two" \'quoted\'\n\ttabbed ',
  SUBSHELL: '$(id) and `id`',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
  BRACES: '${HOME} $HOME $$ $',
  EQUALS: 'a=b=c; echo pwned',
};

/** The embedded defaults, and production's PostgreSQL with Redis (sessions, BullMQ, pub/sub). */
const BACKENDS: { label: string; options: TestPlatformOptions }[] = [
  { label: 'PGlite and the in-process queue', options: {} },
  ...(requireService('postgres') && requireService('redis')
    ? [{ label: 'PostgreSQL and Redis', options: { database: 'postgres', redis: true } as const }]
    : []),
];

describeWith('docker')('the deployment engine on the real Docker Engine', () => {
  describe.each(BACKENDS)('on $label', ({ options }) => {
    let repos: ReturnType<typeof createFixtureRepos>;
    let ctx: TestContext;
    let client: TestClient;

    beforeAll(async () => {
      repos = createFixtureRepos('operator');
      ctx = await createTestContext({
        ...options,
        env: { LOCAL_REPOS_DIR: repos.root, DEPLOY_HEALTH_TIMEOUT_SECONDS: '15' },
      });
      await ctx.platform.runs.startWorkers();
      client = await new TestClient(ctx.app).signIn('operator');
    });

    afterAll(async () => {
      if (ctx) await cleanUpWorkspaces(ctx);
      await ctx?.close();
      repos?.cleanup();
    });

    const workspaceId = async (name: string) => {
      const rows = (await ctx.platform.db.query.workspaces.findMany()).filter((w) => w.name === name);
      return rows[0]!.id;
    };

    it('deploys a three-service compose project: multi-stage build, named volume, byte-exact variables', async () => {
      const upload = await client.post('/api/env-variables/three-service/upload', {
        variables: Object.entries(SECRETS).map(([key, value]) => ({ key, value })),
      });
      expect(upload.statusCode).toBe(200);

      const { sessionId, deploymentId, status } = await deployAndWait(client, { repo: 'three-service' });
      expect(status.error).toBeNull();
      expect(status.state).toBe('completed');
      expect(status.workflowComplete).toBe(true);
      expect(status.progress).toBe(100);
      expect(status.steps.map((s) => s.name)).toEqual(
        expect.arrayContaining(['deploy-application', 'verify-deployment', 'post-deployment']),
      );
      expect(status.steps.every((s) => s.status === 'completed' && s.started_at && s.finished_at)).toBe(true);
      const urls = status.data.deploymentData.metadata.urls;
      expect(Object.keys(urls).sort()).toEqual(['envdump', 'web']);
      expect(status.data.deploymentData.metadata.service_url).toBe(urls.web);
      expect(status.data.deployJobId).toBe(deploymentId);

      // The multi-stage web service answers through its published port.
      expect(await (await fetch(loopback(urls.web!))).text()).toContain('hello from slipway');
      // The variables reach the container byte for byte, unexpanded, without extra variables.
      const environ = Buffer.from(
        await (await fetch(`${loopback(urls.envdump!)}/environ`)).arrayBuffer(),
      ).toString();
      const variables = new Map(
        environ
          .split('\0')
          .filter(Boolean)
          .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
      );
      for (const [key, value] of Object.entries(SECRETS)) expect(variables.get(key)).toBe(value);
      expect(variables.has('line')).toBe(false);

      // Ports on loopback only; the VM size's memory divided among the services; one project, one network.
      const id = await workspaceId('three-service');
      const containers = await containersOf(id);
      expect(containers).toHaveLength(3);
      for (const container of containers) {
        for (const port of container.Ports.filter((p) => p.PublicPort)) expect(port.IP).toBe('127.0.0.1');
        expect(container.Labels[LABELS.composeProject]).toBe(composeProjectName(id));
        const info = await docker.getContainer(container.Id).inspect();
        expect(info.HostConfig.Memory).toBe(Math.floor(1024 / 3) * 1024 * 1024);
        expect(info.HostConfig.NanoCpus).toBeGreaterThan(0);
      }
      const volumes = await docker.listVolumes({
        filters: { label: [`${LABELS.composeProject}=${composeProjectName(id)}`] },
      });
      expect(volumes.Volumes?.length).toBe(1);

      // Build output is kept, streamed, and never holds a variable's value; nor do the API answers.
      const buildStream = await client.get(
        '/api/logs/operator/three-service/stream?log_type=build&initial_lines=1000&follow=true',
      );
      expect(buildStream.headers['content-type']).toContain('text/event-stream');
      expect(
        streamedLogLines(buildStream.body).some((line) => line.startsWith('==> deploy-application')),
      ).toBe(true);
      expect(buildStream.body).toMatch(/Step \d+\/\d+ : FROM busybox:1.36 AS builder/);
      const job = await client.get(`/api/deployment/job/${deploymentId}`);
      expect(job.json()).toMatchObject({
        health_check_failed: false,
        port_discovery_failed: false,
        commit_sha: expect.any(String),
      });
      for (const body of [buildStream.body, job.body, JSON.stringify(status)]) {
        for (const value of Object.values(SECRETS)) expect(body).not.toContain(value);
        expect(body).not.toContain('line one');
      }

      // The status stream of a finished workflow: connected, status, finished, then it closes.
      const stream = await client.get(`/api/workflow/deployment/status/${sessionId}/stream`);
      const events = stream.body
        .split('\n\n')
        .filter((chunk) => chunk.startsWith('data: '))
        .map((chunk) => JSON.parse(chunk.slice(6)) as { type: string } & Partial<WorkflowStatus>);
      expect(events.map((e) => e.type)).toEqual(['connected', 'status', 'finished']);
      expect(events[2]?.workflowComplete).toBe(true);

      // A second start while one runs answers 409; a redeploy reuses the VM and keeps the volume.
      const vmBefore = (await ctx.platform.db.query.workspaces.findFirst({
        where: (w, { eq }) => eq(w.id, id),
      }))!.vmId;
      const redeploy = deployAndWait(client, { repo: 'three-service', workflowType: 'redeploy' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await client.post('/api/workflow/deployment/start', {
        sessionId: crypto.randomUUID(),
        owner: 'operator',
        repo: 'three-service',
        branch: 'main',
        vmSize: 'Standard_B2ats_v2',
      });
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toBe('A deployment is already running for three-service');
      const again = await redeploy;
      expect(again.status.state).toBe('completed');
      const after = (await ctx.platform.db.query.workspaces.findFirst({
        where: (w, { eq }) => eq(w.id, id),
      }))!;
      expect(after.vmId).toBe(vmBefore);
      expect(after.status).toBe('live');
      expect(await containersOf(id)).toHaveLength(3);

      // Deleting the workspace removes containers, volumes, network, images, VM row, variables and logs.
      const logChunksOf = () =>
        ctx.platform.db
          .select({ id: logChunks.id })
          .from(logChunks)
          .where(eq(logChunks.workspaceName, 'three-service'));
      expect((await logChunksOf()).length).toBeGreaterThan(0);
      const deleted = await client.delete('/api/workspace-delete/three-service');
      expect(deleted.statusCode).toBe(200);
      expect(await containersOf(id)).toHaveLength(0);
      const projectFilter = { label: [`${LABELS.composeProject}=${composeProjectName(id)}`] };
      expect((await docker.listVolumes({ filters: projectFilter })).Volumes ?? []).toHaveLength(0);
      expect(await docker.listNetworks({ filters: projectFilter })).toHaveLength(0);
      expect(await listWorkspaceImages(docker, id)).toHaveLength(0);
      expect(await ctx.platform.db.query.vms.findMany()).toHaveLength(0);
      expect((await client.get('/api/env-variables/three-service')).statusCode).toBe(404);
      expect(await logChunksOf()).toHaveLength(0);
      expect((await client.delete('/api/workspace-delete/three-service')).statusCode).toBe(404);
    });

    it('deploys a single-Dockerfile repository from a branch full of shell metacharacters, as a name only', async () => {
      const { status } = await deployAndWait(client, { repo: 'single-dockerfile', branch: HOSTILE_BRANCH });
      expect(status.error).toBeNull();
      const url = status.data.deploymentData.metadata.urls.app!;
      expect(await (await fetch(loopback(url))).text()).toContain('single dockerfile app');
      for (const dir of [
        process.cwd(),
        repos.root,
        path.join(repos.root, 'operator', 'single-dockerfile'),
        ctx.dataDir,
      ]) {
        expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
        expect(existsSync(path.join(dir, 'PWNED2'))).toBe(false);
      }
      const job = (await client.get(`/api/deployment/job/${status.data.deployJobId}`)).json();
      expect(job.branch).toBe(HOSTILE_BRANCH);

      // The admin panel's VM deletion tears down the VM's workspaces too.
      const id = await workspaceId('single-dockerfile');
      const [vm] = (await ctx.platform.db.query.vms.findMany()).filter((v) => v.name.endsWith(id));
      expect(await ctx.platform.deployments.service.adminVmOperations.describeVm(vm!)).toBe('running');
      await ctx.platform.deployments.service.adminVmOperations.deleteVm(vm!.name);
      expect(await containersOf(id)).toHaveLength(0);
      const workspace = await ctx.platform.db.query.workspaces.findFirst({
        where: (w, { eq }) => eq(w.id, id),
      });
      expect(workspace).toMatchObject({ status: 'vm_deleted', vmId: null, serviceUrls: {} });
    });

    it('fails a deployment whose container exits, with the health-check details and its logs, leaving nothing', async () => {
      const { status, deploymentId } = await deployAndWait(client, { repo: 'crashing' });
      expect(status.state).toBe('failed');
      expect(status.success).toBe(false);
      expect(status.steps.find((s) => s.name === 'verify-deployment')?.status).toBe('failed');
      const job = (await client.get(`/api/deployment/job/${deploymentId}`)).json();
      expect(job.health_check_failed).toBe(true);
      expect(job.failed_services).toEqual(['web']);
      expect(job.container_logs.web).toContain('fatal: cannot connect to database');
      expect(job.failure_reason).toMatch(/web/);
      expect(await containersOf(await workspaceId('crashing'))).toHaveLength(0);
      // The failed deployment's build log stays readable.
      const log = await client.get(
        '/api/logs/operator/crashing/stream?log_type=build&initial_lines=500&follow=true',
      );
      expect(log.body).toContain('Deployment failed: Health check failed');
    });

    it('fails with port discovery details when no service exposes a port', async () => {
      const { status, deploymentId } = await deployAndWait(client, { repo: 'no-ports' });
      expect(status.state).toBe('failed');
      expect(status.error).toBe(NO_PORTS_MESSAGE);
      const job = (await client.get(`/api/deployment/job/${deploymentId}`)).json();
      expect(job).toMatchObject({ port_discovery_failed: true, expected_services: ['worker'] });
      expect(await containersOf(await workspaceId('no-ports'))).toHaveLength(0);
    });

    it('refuses privileged, host networking and a docker.sock mount before anything runs', async () => {
      const { status } = await deployAndWait(client, { repo: 'privileged' });
      expect(status.state).toBe('failed');
      expect(status.steps.find((s) => s.name === 'policy-check')?.status).toBe('failed');
      expect(status.steps.find((s) => s.name === 'deploy-application')?.status).toBe('pending');
      expect(status.error).toContain("Service 'web' uses privileged: true, which is not allowed");
      expect(status.error).toContain("Service 'web' uses network_mode: host, which is not allowed");
      expect(status.error).toContain('/var/run/docker.sock');
      expect(await containersOf(await workspaceId('privileged'))).toHaveLength(0);
    });

    it("refuses a build FROM another workspace's image", async () => {
      const { status } = await deployAndWait(client, { repo: 'foreign-image' });
      expect(status.state).toBe('failed');
      expect(status.error).toBe(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's literal ${BASE}
        "Service 'app' builds FROM ${BASE} (images of other workspaces), which is not allowed",
      );
    });

    it('deploys nothing when the workspace variables cannot be read, and says why', async () => {
      const upload = await client.post('/api/env-variables/single-dockerfile/upload', {
        variables: [{ key: 'API_TOKEN', value: 'a-secret-value' }],
      });
      expect(upload.statusCode).toBe(200);
      // Stored under another key (a changed ENCRYPTION_KEY): nothing can decrypt it.
      await ctx.platform.db
        .update(envVariables)
        .set({ valueEnc: 'v1:not-a-ciphertext' })
        .where(eq(envVariables.workspaceName, 'single-dockerfile'));
      const { status } = await deployAndWait(client, { repo: 'single-dockerfile' });
      expect(status.state).toBe('failed');
      expect(status.error).toBe(ENV_UNREADABLE_MESSAGE);
      await ctx.platform.db.delete(envVariables).where(eq(envVariables.workspaceName, 'single-dockerfile'));
    });

    it('refuses a repository with neither compose file nor Dockerfile', async () => {
      const { status } = await deployAndWait(client, { repo: 'no-docker' });
      expect(status.state).toBe('failed');
      expect(status.error).toBe(NON_DOCKERIZED_MESSAGE);
    });

    it('validates input and keeps other users out', async () => {
      const definition = (await client.get('/api/workflow/deployment')).json();
      expect(definition.steps.map((s: { name: string }) => s.name)).toEqual([
        'provision-vm',
        'fetch-source',
        'detect-project',
        'policy-check',
        'deploy-application',
        'discover-ports',
        'verify-deployment',
        'configure-routing',
        'post-deployment',
      ]);
      expect(definition.steps.every((s: { status: string }) => s.status === 'pending')).toBe(true);

      const bad = await client.post('/api/workflow/deployment/start', {
        sessionId: crypto.randomUUID(),
        owner: 'operator',
        repo: 'single-dockerfile',
        branch: '--upload-pack=touch /tmp/x',
        vmSize: 'Standard_B2ats_v2',
      });
      expect(bad.statusCode).toBe(400);
      const missing = await client.post('/api/workflow/deployment/start', {
        sessionId: crypto.randomUUID(),
        owner: 'operator',
        repo: 'does-not-exist',
        branch: 'main',
      });
      expect(missing.statusCode).toBe(404);

      const { sessionId, deploymentId } = await deployAndWait(client, { repo: 'no-docker' });
      await client.post('/api/session/state', {
        sessionId,
        stateData: { owner: 'operator', repo: 'no-docker' },
      });
      expect((await client.get(`/api/session/state/${sessionId}`)).json()).toEqual({
        exists: true,
        stateData: { owner: 'operator', repo: 'no-docker' },
      });
      expect((await client.put(`/api/session/state/${sessionId}/extend`)).json()).toEqual({ extended: true });

      const { client: other } = await signInNewUser(ctx);
      const notFound = await other.get(`/api/workflow/deployment/status/${sessionId}`);
      expect(notFound.statusCode).toBe(404);
      expect(notFound.json().error).toBe('Workflow session not found');
      expect((await other.get(`/api/workflow/deployment/status/${sessionId}/stream`)).statusCode).toBe(404);
      expect((await other.get(`/api/deployment/job/${deploymentId}`)).statusCode).toBe(404);
      expect((await other.get(`/api/session/state/${sessionId}`)).json()).toEqual({
        exists: false,
        stateData: null,
      });
      expect((await other.get('/api/logs/operator/no-docker/stream?log_type=build')).statusCode).toBe(404);
      expect((await other.delete('/api/workspace-delete/no-docker')).statusCode).toBe(404);

      await client.delete(`/api/session/state/${sessionId}`);
      expect((await client.get(`/api/session/state/${sessionId}`)).json().exists).toBe(false);
    });
  });
});
