import { beforeAll, expect, it } from 'vitest';
import { imageIdsInBuildOutput } from '../infra/docker/buildStages.js';
import { containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
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

describeWith('docker')('the first deployment of a Compose project builds and starts in one run', () => {
  const engine = useEngineWorld();
  let client: TestClient;

  beforeAll(() => {
    engine.world.repo('fine', twoBuiltServices('true'));
    engine.world.repo('broken', twoBuiltServices(FAILING_STEP));
    client = engine.client;
  });

  const buildLog = async (repo: string) =>
    (await client.get(`/api/logs/operator/${repo}/stream?log_type=build&initial_lines=1000`)).body;

  it('builds both images and goes Live; a redeploy finds the build stages in the cache', async () => {
    const { status } = await deployAndWait(client, { repo: 'fine' });
    expect(status.error).toBeNull();
    expect(status.state).toBe('completed');
    const log = await buildLog('fine');
    expect(log).toContain('Building images and starting containers...');
    expect(log).not.toContain('Building images...');
    const url = status.data.deploymentData.metadata.urls.web!;
    expect((await (await fetch(loopback(url))).text()).trim()).toBe('built and started');

    // The stage's step printed the nonce when it ran.
    const lines = async () => (await buildLog('fine')).split('\n').map((line) => line.slice(6));
    expect(await lines()).toContain(NONCE);

    // A redeploy builds again: the first stage of web's build was kept as its cache, so its step does not run.
    const again = await deployAndWait(client, { repo: 'fine', workflowType: 'redeploy' });
    expect(again.status.state).toBe('completed');
    const redeployed = await lines();
    expect(redeployed).toContain('Building images...');
    expect(redeployed).not.toContain(NONCE);
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
    // The classic builder kept the failed step's container (`up --build` cannot ask it not to); it is gone.
    const all = await docker.listContainers({ all: true });
    expect(all.filter((container) => container.Command.includes(FAILING_STEP.split(' ')[1]!))).toEqual([]);
    expect(await buildLog('broken')).toContain('returned a non-zero code: 7');
  });

  it('leaves no image either build made once both workspaces are deleted (build stages included)', async () => {
    // The stream's lines are `data: <line>`.
    const lines = async (repo: string) => (await buildLog(repo)).split('\n').map((line) => line.slice(6));
    const made = new Set([
      ...imageIdsInBuildOutput(await lines('fine')),
      ...imageIdsInBuildOutput(await lines('broken')),
    ]);
    const base = (await docker.getImage('busybox:1.36').inspect()).Id.replace(/^sha256:/, '');
    for (const id of made) if (base.startsWith(id)) made.delete(id);
    expect(made.size).toBeGreaterThan(3);
    for (const name of ['fine', 'broken']) {
      expect((await client.delete(`/api/workspace-delete/${name}`)).statusCode).toBe(200);
    }
    const left = [];
    for (const id of made) {
      if (
        await docker
          .getImage(id)
          .inspect()
          .then(
            () => true,
            () => false,
          )
      )
        left.push(id);
    }
    expect(left).toEqual([]);
  });
});
