import { randomUUID } from 'node:crypto';
import {
  DEPLOYMENT_CANCELLED_MESSAGE,
  type WorkflowStatus,
  type WorkspaceRevisions,
} from '@slipway/contract';
import { expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { listCandidateContainers } from '../infra/docker/projectResources.js';
import {
  containersOf,
  deployAndWait,
  docker,
  loopback,
  NEVER_LISTENS,
  SERVE_PAGE,
  shopVersion,
} from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

/**
 * Issue 15: a redeploy that fails after replacing the containers puts the last good version back; a cancelled
 * one stops within seconds and leaves the serving version in place.
 */
describeWith('docker')('redeploys that fail or are cancelled', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' });
  let firstDeploymentId: string;

  it('ends failed with its reasons and the previous version serving again, from its kept image', async () => {
    engine.world.repo('shop', shopVersion('version one', SERVE_PAGE));
    const first = await deployAndWait(engine.client, { repo: 'shop' });
    expect(first.status.error).toBeNull();
    firstDeploymentId = first.deploymentId;
    const url = loopback(first.status.data.deploymentData.metadata.urls.web!);
    expect(await (await fetch(url)).text()).toBe('version one\n');

    const workspaceId = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!.id;
    const servingWeb = async () =>
      (await containersOf(workspaceId)).find((c) => c.Labels[LABELS.composeService] === 'web')!;
    const webBefore = await servingWeb();

    // The next commit builds a new page but its web service never listens.
    engine.world.repo('shop', shopVersion('version two', NEVER_LISTENS));
    const broken = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(broken.status.state).toBe('failed');
    expect(broken.status.error).toMatch(/web/);
    expect(broken.status.steps.find((s) => s.name === 'verify-deployment')?.status).toBe('failed');

    expect(await (await fetch(url)).text()).toBe('version one\n');
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    expect(workspace.status).toBe('live');
    // Verified beside the serving version, which was never touched: the same container serves throughout.
    const web = await servingWeb();
    expect(web.Id).toBe(webBefore.Id);
    expect(web.Labels[LABELS.deploymentId]).toBe(first.deploymentId);
    const log = await engine.client.get(
      '/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true',
    );
    expect(log.body).toContain('Starting the new version of web beside the serving one');
    expect(log.body).toContain('Removed the side-by-side copy of web');
    expect(log.body).toContain('The previous version kept serving throughout');
    expect(log.body).not.toContain('Starting the previous version again');
    const candidates = await listCandidateContainers(docker, workspace.id);
    expect(candidates).toEqual([]);
  });

  /** Starts a redeploy, waits until `step` is in progress (and the build log has `logLine`), cancels it; returns the final status and how long it took. */
  async function cancelDuring(step: string, logLine?: string) {
    const sessionId = randomUUID();
    const started = await engine.client.post('/api/workflow/deployment/start', {
      sessionId,
      owner: 'operator',
      repo: 'shop',
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
      workflowType: 'redeploy',
    });
    expect(started.statusCode).toBe(200);
    const status = async () =>
      (await engine.client.get(`/api/workflow/deployment/status/${sessionId}`)).json() as WorkflowStatus;
    const buildLog = async () =>
      (
        await engine.client.get(
          '/api/logs/operator/shop/stream?log_type=build&initial_lines=1000&follow=false',
        )
      ).body;
    for (let current = await status(); ; current = await status()) {
      if (
        current.steps.find((s) => s.name === step)?.status === 'in_progress' &&
        (!logLine || (await buildLog()).includes(logLine))
      )
        break;
      if (current.state !== 'started') throw new Error(`ended before ${step}: ${current.error}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const cancelledAt = Date.now();
    const cancel = await engine.client.post(`/api/workflow/deployment/cancel/${sessionId}`, {});
    expect(cancel.json()).toEqual({ success: true, message: DEPLOYMENT_CANCELLED_MESSAGE });
    let final = await status();
    while (final.state === 'started') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      final = await status();
    }
    const again = await engine.client.post(`/api/workflow/deployment/cancel/${sessionId}`, {});
    expect(again.statusCode).toBe(409);
    return {
      final,
      stoppedAfterMs: Date.now() - cancelledAt,
      deploymentId: started.json().deploymentId as string,
    };
  }

  it('cancels a redeploy in the middle of its build: nothing built, the serving version untouched', async () => {
    const url = loopback((await engine.ctx.platform.db.query.workspaces.findMany())[0]!.serviceUrls.web!);
    engine.world.repo('shop', {
      ...shopVersion('version three', SERVE_PAGE),
      'web/Dockerfile': `FROM busybox:1.36\nRUN echo "slow build started" && sleep 120\n`,
    });
    const { final, stoppedAfterMs, deploymentId } = await cancelDuring(
      'deploy-application',
      'slow build started',
    );
    expect(final.state).toBe('failed');
    expect(final.error).toBe(DEPLOYMENT_CANCELLED_MESSAGE);
    // Seconds, not the build's two minutes (the bound is 5 s; this leaves room for a loaded machine).
    expect(stoppedAfterMs).toBeLessThan(15_000);
    expect(await (await fetch(url)).text()).toBe('version one\n');
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const running = (await containersOf(workspace.id)).find(
      (c) => c.Labels[LABELS.composeService] === 'web',
    )!;
    expect(running.Labels[LABELS.deploymentId]).not.toBe(deploymentId);
    const names = (await docker.listImages()).flatMap((image) => image.RepoTags ?? []);
    expect(names.filter((name) => name.endsWith(`:${deploymentId}`))).toEqual([]);
  });

  it('cancels a redeploy whose new containers are being verified: the previous version is put back', async () => {
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const url = loopback(workspace.serviceUrls.web!);
    engine.world.repo('shop', shopVersion('version four', NEVER_LISTENS));
    const { final, stoppedAfterMs } = await cancelDuring('verify-deployment');
    expect(final.error).toBe(DEPLOYMENT_CANCELLED_MESSAGE);
    expect(stoppedAfterMs).toBeLessThan(30_000);
    expect(await (await fetch(url)).text()).toBe('version one\n');
    expect((await engine.ctx.platform.db.query.workspaces.findMany())[0]!.status).toBe('live');
  });

  it('rolls back to a kept version without building: its images and project, a new revision on top', async () => {
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany())[0]!;
    const url = loopback(workspace.serviceUrls.web!);
    const store = async () =>
      (await containersOf(workspace.id)).find((c) => c.Labels[LABELS.composeService] === 'store')!;
    const storeBefore = await store();
    const storeStartedAt = (await docker.getContainer(storeBefore.Id).inspect()).State.StartedAt;
    engine.world.repo('shop', shopVersion('version five', SERVE_PAGE));
    const five = await deployAndWait(engine.client, { repo: 'shop', workflowType: 'redeploy' });
    expect(five.status.error).toBeNull();
    expect(await (await fetch(url)).text()).toBe('version five\n');
    // Blue/green for what changed only: the unchanged store kept its container, said so before `up`.
    expect((await store()).Id).toBe(storeBefore.Id);
    const fiveLog = await engine.client.get(
      '/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true',
    );
    expect(fiveLog.body).toContain('store: unchanged, left running');

    const listed = (await engine.client.get('/api/workspace-revisions/shop')).json() as WorkspaceRevisions;
    expect(listed.revisions.map((r) => [r.deployment_id, r.current, r.can_roll_back])).toEqual([
      [five.deploymentId, true, false],
      [firstDeploymentId, false, true],
    ]);

    const sessionId = randomUUID();
    const startedAt = Date.now();
    const started = await engine.client.post(`/api/workspace-rollback/shop/${firstDeploymentId}`, {
      sessionId,
    });
    expect(started.statusCode).toBe(200);
    let status = (
      await engine.client.get(`/api/workflow/deployment/status/${sessionId}`)
    ).json() as WorkflowStatus;
    while (status.state === 'started') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (
        await engine.client.get(`/api/workflow/deployment/status/${sessionId}`)
      ).json() as WorkflowStatus;
    }
    // The target is under 10 s for a shop-sized app; a loaded CI machine gets room.
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    expect(status.error).toBeNull();
    expect(status.data.deploymentData.metadata.urls.web).toBe(workspace.serviceUrls.web);
    expect(await (await fetch(url)).text()).toBe('version one\n');
    const web = (await containersOf(workspace.id)).find((c) => c.Labels[LABELS.composeService] === 'web')!;
    expect(web.Image).toBe(`slipway-${workspace.id}-web:${firstDeploymentId}`);
    // The store ran through the redeploy and the rollback on one container, never stopped.
    expect((await store()).Id).toBe(storeBefore.Id);
    const storeState = (await docker.getContainer(storeBefore.Id).inspect()).State;
    expect(storeState.StartedAt).toBe(storeStartedAt);
    expect(storeState.Running).toBe(true);
    const log = await engine.client.get(
      '/api/logs/operator/shop/stream?log_type=build&initial_lines=500&follow=true',
    );
    expect(log.body).toContain('nothing to build');
    expect(log.body).not.toContain('Building images');

    const after = (await engine.client.get('/api/workspace-revisions/shop')).json() as WorkspaceRevisions;
    expect(after.revisions[0]).toMatchObject({
      trigger: 'rollback',
      rollback_of: firstDeploymentId,
      current: true,
      deployed_by: 'operator',
    });
    // Someone else's deployment id, or a version that never deployed, is not a version of this workspace.
    const unknown = await engine.client.post(`/api/workspace-rollback/shop/${randomUUID()}`, {
      sessionId: randomUUID(),
    });
    expect(unknown.statusCode).toBe(404);
  });
});
