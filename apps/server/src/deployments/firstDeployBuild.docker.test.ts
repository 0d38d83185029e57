import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { imageIdsInBuildOutput } from '../infra/docker/buildStages.js';
import { LABELS } from '../infra/docker/conventions.js';
import { listWorkspaceImages } from '../infra/docker/projectResources.js';
import {
  containersOf,
  deployAndWait,
  docker,
  loopback,
  streamedLogLines,
  waitForDeployment,
} from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';
import type { TestClient } from '../test/testClient.js';

/** A marker no other build prints: the failed step's container is found by it, and no stage is cached. */
const NONCE = `${process.pid}-${Date.now()}`;
const FAILING_STEP = `echo first-deploy-build-fails-${NONCE} && exit 7`;

/** Two built services, web's a multi-stage build; `workerStep` is the worker's one build step. */
const twoBuiltServices = (workerStep: string) => ({
  'docker-compose.yml':
    'services:\n  web:\n    build: ./web\n    ports:\n      - "8080"\n  worker:\n    build: ./worker\n',
  'web/Dockerfile':
    `FROM busybox:1.36 AS page\nRUN mkdir /www && echo built and started > /www/index.html && echo ${NONCE}\n` +
    'FROM busybox:1.36\nCOPY --from=page /www /www\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n',
  'worker/Dockerfile': `FROM busybox:1.36\nRUN ${workerStep}\nCMD ["sleep", "3600"]\n`,
});

describeWith('docker')("a Compose project's images are built side by side through the engine", () => {
  const engine = useEngineWorld();
  let client: TestClient;

  beforeAll(() => {
    engine.world.repo('fine', twoBuiltServices('true'));
    engine.world.repo('broken', twoBuiltServices(FAILING_STEP));
    engine.world.repo('unchanged', twoBuiltServices('true'));
    engine.world.repo('shared', {
      'docker-compose.yml':
        'services:\n  web:\n    build: .\n    command: ["httpd", "-f", "-p", "8080", "-h", "/www"]\n    ports:\n      - "8080"\n' +
        '  worker:\n    build:\n      context: .\n    command: ["sleep", "3600"]\n',
      Dockerfile: `FROM busybox:1.36\nRUN mkdir /www && echo shared > /www/index.html && echo shared-${NONCE}\n`,
    });
    client = engine.client;
  });

  const buildLog = async (repo: string) =>
    (await client.get(`/api/logs/operator/${repo}/stream?log_type=build&initial_lines=1000`)).body;
  /** The lines the builds printed, each build's `{service} | ` taken off. */
  const buildOutput = async (repo: string) =>
    streamedLogLines(await buildLog(repo)).map((line) => line.replace(/^[\w.-]+ *\| /, ''));

  it('builds both images and goes Live; a redeploy finds the build stages in the cache', async () => {
    const { status } = await deployAndWait(client, { repo: 'fine' });
    expect(status.error).toBeNull();
    expect(status.state).toBe('completed');
    const log = await buildLog('fine');
    expect(log).toContain('Building images...');
    // Each line of a build is its service's: the two builds' lines interleave in the log.
    expect(log).toContain('Building web');
    expect(log).toContain('Building worker');
    expect(log).toMatch(/web {4}\| Step 1\/5 : FROM busybox:1\.36 AS page/);
    expect(log).toMatch(/worker \| Step 1\/3 : FROM busybox:1\.36/);
    const url = status.data.deploymentData.metadata.urls.web!;
    expect((await (await fetch(loopback(url))).text()).trim()).toBe('built and started');

    // The stage's step printed the nonce when it ran.
    expect(await buildOutput('fine')).toContain(NONCE);

    // A redeploy builds again: the first stage of web's build was kept as its cache, so its step does not run.
    const again = await deployAndWait(client, { repo: 'fine', workflowType: 'redeploy' });
    expect(again.status.state).toBe('completed');
    const redeployed = await buildOutput('fine');
    expect(redeployed).toContain('Building images...');
    expect(redeployed).not.toContain(NONCE);
  });

  it('leaves a built service whose build did not change running, and replaces the one that changed', async () => {
    const first = await deployAndWait(client, { repo: 'unchanged' });
    expect(first.status.error).toBeNull();
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === 'unchanged',
    )!;
    const byService = async () =>
      Object.fromEntries(
        (await containersOf(workspace.id)).map((c) => [c.Labels[LABELS.composeService], c] as const),
      );
    const before = await byService();
    // The same commit again: both builds are the images the containers run, so nothing is restarted.
    const same = await deployAndWait(client, { repo: 'unchanged', workflowType: 'redeploy' });
    expect(same.status.error).toBeNull();
    const log = await buildLog('unchanged');
    expect(log).toContain('web: unchanged, left running');
    expect(log).toContain('worker: unchanged, left running');
    const after = await byService();
    expect(after.web?.Id).toBe(before.web?.Id);
    expect(after.worker?.Id).toBe(before.worker?.Id);
    const names = (await listWorkspaceImages(docker, workspace.id)).flatMap((image) => image.RepoTags ?? []);
    expect(names.filter((name) => name.endsWith(`:${same.deploymentId}`))).toEqual([]);

    // A commit that changes the worker's build: the worker is replaced, web keeps its container.
    engine.world.repo('unchanged', twoBuiltServices('echo changed'));
    const changed = await deployAndWait(client, { repo: 'unchanged', workflowType: 'redeploy' });
    expect(changed.status.error).toBeNull();
    const last = await byService();
    expect(last.web?.Id).toBe(before.web?.Id);
    expect(last.worker?.Id).not.toBe(before.worker?.Id);
    expect(last.worker?.Image).toBe(`slipway-${workspace.id}-worker:${changed.deploymentId}`);
    expect(last.worker?.Labels[LABELS.deploymentId]).toBe(changed.deploymentId);
    expect(last.web?.Labels[LABELS.deploymentId]).not.toBe(changed.deploymentId);

    // A rollback to the redeploy that kept both containers finds the older names it runs, and puts the worker
    // built before the change back; web is still the same container.
    const sessionId = randomUUID();
    const rollback = await client.post(`/api/workspace-rollback/unchanged/${same.deploymentId}`, {
      sessionId,
    });
    expect(rollback.statusCode).toBe(200);
    const rolledBack = await waitForDeployment(client, {
      sessionId,
      deploymentId: rollback.json().deploymentId,
    });
    expect(rolledBack.status.error).toBeNull();
    const restored = await byService();
    expect(restored.web?.Id).toBe(before.web?.Id);
    expect(restored.worker?.Image).toBe(before.worker?.Image);
    // Its images are the same as fine's (the same Dockerfiles): they go with it, before that test's count.
    expect((await client.delete('/api/workspace-delete/unchanged')).statusCode).toBe(200);
  });

  it('builds once for services with the same build section, and names the image for each', async () => {
    const { status, deploymentId } = await deployAndWait(client, { repo: 'shared' });
    expect(status.error).toBeNull();
    const output = await buildOutput('shared');
    expect(output).toContain('worker: the same build as web');
    expect(output.filter((line) => line === `shared-${NONCE}`)).toHaveLength(1);
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === 'shared',
    )!;
    const containers = await containersOf(workspace.id);
    const images = Object.fromEntries(containers.map((c) => [c.Labels[LABELS.composeService], c.Image]));
    expect(images).toEqual({
      web: `slipway-${workspace.id}-web:${deploymentId}`,
      worker: `slipway-${workspace.id}-worker:${deploymentId}`,
    });
    expect(new Set(containers.map((c) => c.ImageID)).size).toBe(1);
    expect((await client.delete('/api/workspace-delete/shared')).statusCode).toBe(200);
  });

  it('reports a failed build as the build step that failed, and leaves no container of it behind', async () => {
    const { status } = await deployAndWait(client, { repo: 'broken' });
    expect(status.state).toBe('failed');
    expect(status.error).toBe(
      `The build step failed for service 'worker': The command '/bin/sh -c ${FAILING_STEP}' returned a non-zero code: 7`,
    );
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === 'broken',
    )!;
    expect(await containersOf(workspace.id)).toHaveLength(0);
    // The failed step's container went with the build.
    const all = await docker.listContainers({ all: true });
    expect(all.filter((container) => container.Command.includes(FAILING_STEP.split(' ')[1]!))).toEqual([]);
    expect(await buildLog('broken')).toContain('returned a non-zero code: 7');
  });

  it('leaves no image either build made once both workspaces are deleted (build stages included)', async () => {
    const made = new Set([
      ...imageIdsInBuildOutput(await buildOutput('fine')),
      ...imageIdsInBuildOutput(await buildOutput('broken')),
    ]);
    const base = (await docker.getImage('busybox:1.36').inspect()).Id.replace(/^sha256:/, '');
    for (const id of made) if (base.startsWith(id)) made.delete(id);
    expect(made.size).toBeGreaterThan(3);
    const deleted = (await engine.ctx.platform.db.query.workspaces.findMany())
      .filter((workspace) => ['fine', 'broken'].includes(workspace.name))
      .map((workspace) => workspace.id);
    expect(deleted).toHaveLength(2);
    for (const name of ['fine', 'broken']) {
      expect((await client.delete(`/api/workspace-delete/${name}`)).statusCode).toBe(200);
    }
    // The engine's layer cache is the machine's: an image these builds made may by now be another build's image or
    // its base (the same Dockerfile steps in another test run on this engine). What must be gone is every name of
    // these workspaces, and every image of these builds that no other name or image uses.
    const images = await docker.listImages({ all: true });
    const parents = images.map((image) => image.ParentId.replace(/^sha256:/, '')).filter(Boolean);
    const orphans = [];
    for (const id of made) {
      const image = images.find((candidate) => candidate.Id.replace(/^sha256:/, '').startsWith(id));
      if (!image) continue;
      const tags = (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
      const ours = tags.some((tag) => deleted.some((ws) => tag.startsWith(`slipway-${ws}-`)));
      const usedElsewhere = tags.length > 0 || parents.some((parent) => parent.startsWith(id));
      if (ours || !usedElsewhere) orphans.push(id);
    }
    expect(orphans).toEqual([]);
  });
});
