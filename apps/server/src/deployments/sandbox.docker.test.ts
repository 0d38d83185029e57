import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployments } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';
import { listWorkspaceImages } from '../infra/docker/projectResources.js';
import { cleanUpWorkspaces, containersOf, deployAndWait, docker, loopback } from '../test/deployments.js';
import { climbTo, createHostileWorld, type HostileWorld, HTTPD } from '../test/fixtures/hostileRepos.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';

/**
 * Hostile repositories against the real engine (issue 13): each is refused before anything runs, and the marker
 * kept in host files outside the repository reaches nothing a tenant can observe — status, job record, build
 * log, deployment row, containers.
 */
describeWith('docker')('the sandbox against hostile repositories', () => {
  let world: HostileWorld;
  let ctx: TestContext;
  let client: TestClient;
  let busyboxId: string;
  const web = (extra = '') => `services:\n  web:\n${HTTPD}${extra}`;

  beforeAll(async () => {
    world = createHostileWorld();
    ctx = await createTestContext({
      env: { LOCAL_REPOS_DIR: world.root, DEPLOY_HEALTH_TIMEOUT_SECONDS: '15' },
    });
    await ctx.platform.runs.startWorkers();
    client = await new TestClient(ctx.app).signIn('operator');
    // Any image on the shared engine stands for another tenant's: its ID must not be usable.
    busyboxId = (await docker.getImage('busybox:1.36').inspect()).Id.replace('sha256:', '');
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    world?.cleanup();
  });

  const workspaceId = async (name: string, userId?: string) =>
    (await ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === name && (!userId || w.userId === userId),
    )!.id;

  /** Deploys `repo`, expects refusal at `step` with `message`, and checks that nothing ran or leaked. */
  async function expectRefused(repo: string, step: string, message: string, as = client, owner = 'operator') {
    const { status, deploymentId } = await deployAndWait(as, { repo, owner });
    expect(status.state).toBe('failed');
    expect(status.steps.find((s) => s.name === step)?.status).toBe('failed');
    expect(status.steps.find((s) => s.name === 'deploy-application')?.status).toBe('pending');
    expect(status.error).toContain(message);
    const id = (await ctx.platform.db.query.deployments.findFirst({
      where: (d, { eq }) => eq(d.id, deploymentId),
    }))!.workspaceId!;
    expect(await containersOf(id)).toHaveLength(0);
    expect(await listWorkspaceImages(docker, id)).toHaveLength(0);
    const job = await as.get(`/api/deployment/job/${deploymentId}`);
    const log = await as.get(
      `/api/logs/${owner}/${repo}/stream?log_type=build&initial_lines=1000&follow=true`,
    );
    expect(log.body).toContain('Deployment failed');
    const row = await ctx.platform.db.query.deployments.findFirst({
      where: (d, { eq }) => eq(d.id, deploymentId),
    });
    for (const seen of [JSON.stringify(status), job.body, log.body, JSON.stringify(row)]) {
      expect(seen).not.toContain(world.marker);
    }
    // Issue 39: the refusal's sentences show paths relative to the repository, never the data directory.
    for (const sentence of [status.error, row?.error, JSON.stringify(row?.metadata)]) {
      expect(sentence).not.toContain(ctx.dataDir);
    }
    return { status, deploymentId };
  }

  describe('symlinks out of the checkout (refused before Compose reads anything)', () => {
    it.each([
      [
        'hostile-env-file-absolute',
        () => ({
          'compose.yaml': web('    env_file: ./leak.env\n'),
          'leak.env': { link: path.join(world.hostDir, 'app.env') },
        }),
        "Service 'web' uses env_file: ./leak.env, which points outside the repository",
      ],
      [
        'hostile-env-file-relative',
        () => ({
          'compose.yaml': web('    env_file: ./leak.env\n'),
          'leak.env': { link: climbTo(path.join(world.hostDir, 'app.env')) },
        }),
        "Service 'web' uses env_file: ./leak.env, which points outside the repository",
      ],
      [
        'hostile-env-file-directory',
        () => ({ 'compose.yaml': web('    env_file: ./conf/app.env\n'), conf: { link: world.hostDir } }),
        "Service 'web' uses env_file: ./conf/app.env, which points outside the repository",
      ],
      [
        'hostile-dotenv',
        () => ({
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
          'compose.yaml': web('    environment:\n      - LEAK=${LEAK}\n'),
          '.env': { link: path.join(world.hostDir, 'app.env') },
        }),
        "The repository's .env points outside the repository",
      ],
      [
        'hostile-compose-file',
        () => ({ 'docker-compose.yml': { link: path.join(world.hostDir, 'compose.yml') } }),
        'docker-compose.yml points outside the repository',
      ],
      [
        'hostile-extends',
        () => ({
          'compose.yaml': 'services:\n  web:\n    extends: { file: ./base.yml, service: web }\n',
          'base.yml': { link: climbTo(path.join(world.hostDir, 'compose.yml')) },
        }),
        "Service 'web' uses extends.file: ./base.yml, which points outside the repository",
      ],
    ])(
      '%s',
      async (name, files, message) => {
        world.repo(name, files());
        await expectRefused(name, 'detect-project', message);
      },
      120_000,
    );
  });

  describe('symlinks that reach the normalized config (refused by the policy, before any build)', () => {
    it.each([
      [
        'hostile-secret-file',
        () => ({
          'compose.yaml': `${web('    secrets: [key]\n')}secrets:\n  key:\n    file: ./key.txt\n`,
          'key.txt': { link: path.join(world.hostDir, 'secrets.json') },
        }),
        'The compose file uses secrets.key.file: ./key.txt, which points outside the repository',
      ],
      [
        'hostile-build-context',
        () => ({
          'compose.yaml': 'services:\n  web:\n    build: ./app\n    ports: ["8080"]\n',
          app: { link: world.hostDir },
        }),
        "Service 'web' uses build.context: ./app, which points outside the repository",
      ],
      [
        // Issue 39: the context climbed to DATA_DIR/builds/checkouts, and the sentence showed that path.
        'climbing-build-context',
        () => ({ 'compose.yaml': 'services:\n  web:\n    build: ..\n    ports: ["8080"]\n' }),
        "Service 'web' uses build.context: .., which points outside the repository",
      ],
      [
        'missing-secret-file',
        () => ({
          'compose.yaml': `${web('    secrets: [x]\n')}secrets:\n  x:\n    file: ./static/index.html\n`,
        }),
        'The compose file uses secrets.x.file: ./static/index.html, which does not exist in the repository',
      ],
      [
        'hostile-link-in-context',
        () => ({
          'compose.yaml': 'services:\n  web:\n    build: ./app\n    ports: ["8080"]\n',
          'app/Dockerfile':
            'FROM busybox:1.36\nCOPY leak /leak\nRUN cat /leak\nCMD ["httpd", "-f", "-p", "8080"]\n',
          'app/leak': { link: climbTo(path.join(world.hostDir, 'secrets.json')) },
        }),
        'which holds a link pointing outside the repository (app/leak -> ',
      ],
      [
        'hostile-dockerfile',
        () => ({ Dockerfile: { link: path.join(world.hostDir, 'Dockerfile') } }),
        "Service 'app' uses build.dockerfile: Dockerfile, which points outside the repository",
      ],
    ])(
      '%s',
      async (name, files, message) => {
        world.repo(name, files());
        await expectRefused(name, 'policy-check', message);
      },
      120_000,
    );
  });

  it("refuses images by ID, ID prefix and sha256: in image:, FROM and COPY --from, so another tenant's image is never run or built on", async () => {
    const short = busyboxId.slice(0, 12);
    const cases: [string, Record<string, string>, string][] = [
      [
        'hostile-image-id12',
        { 'compose.yaml': web().replace('busybox:1.36', short) },
        `image: ${short} (an image ID`,
      ],
      [
        'hostile-image-id64',
        { 'compose.yaml': web().replace('busybox:1.36', busyboxId) },
        `image: ${busyboxId} (an image ID`,
      ],
      [
        'hostile-image-sha256',
        { 'compose.yaml': web().replace('busybox:1.36', `sha256:${busyboxId}`) },
        'image: sha256:',
      ],
      [
        'hostile-image-sha256-prefix',
        { 'compose.yaml': web().replace('busybox:1.36', `sha256:${short}`) },
        `sha256:${short} (an image ID`,
      ],
      [
        'hostile-from-id',
        { Dockerfile: `ARG BASE=${short}\nFROM \${BASE}\nCMD ["httpd", "-f", "-p", "8080"]\n` },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
        "Service 'app' builds FROM ${BASE} (an image ID",
      ],
      [
        'hostile-copy-from-id',
        {
          Dockerfile: `FROM busybox:1.36\nCOPY --from=sha256:${busyboxId} /bin/sh /x\nCMD ["httpd", "-f", "-p", "8080"]\n`,
        },
        `builds COPY --from=sha256:${busyboxId} /bin/sh /x (an image ID`,
      ],
    ];
    for (const [name, files, message] of cases) {
      world.repo(name, files);
      await expectRefused(name, 'policy-check', message);
    }
  }, 300_000);

  it("keeps tenant B off tenant A's network and volume: A's names are B's own, external: and container: are refused", async () => {
    world.repo('tenant-a', {
      'compose.yaml': `services:\n  web:\n${HTTPD}    volumes: [data:/data]\nvolumes:\n  data: {}\n`,
    });
    const a = await deployAndWait(client, { repo: 'tenant-a' });
    expect(a.status.state).toBe('completed');
    const aId = await workspaceId('tenant-a');
    const [aContainer] = await containersOf(aId);
    const aNetwork = Object.keys(aContainer!.NetworkSettings.Networks)[0]!;
    const aVolume = (await docker.getContainer(aContainer!.Id).inspect()).Mounts.find(
      (m) => m.Type === 'volume',
    )!.Name!;
    const aContainerName = aContainer!.Names[0]!.replace(/^\//, '');

    const b = await signInNewUser(ctx);
    // A's names written as fixed names: B gets a network and a volume of its own that hold them.
    world.repo('b-names', {
      'compose.yaml': `${web('    volumes: [d:/d]\n')}networks:\n  default:\n    name: ${aNetwork}\nvolumes:\n  d:\n    name: ${aVolume}\n`,
    });
    const named = await deployAndWait(b.client, { repo: 'b-names' });
    expect(named.status.state).toBe('completed');
    const bId = await workspaceId('b-names', b.userId);
    const [bContainer] = await containersOf(bId);
    const bInfo = await docker.getContainer(bContainer!.Id).inspect();
    expect(Object.keys(bInfo.NetworkSettings.Networks)).toEqual([`slipway-${bId}_${aNetwork}`]);
    expect(bInfo.Mounts.filter((m) => m.Type === 'volume').map((m) => m.Name)).toEqual([
      `slipway-${bId}_${aVolume}`,
    ]);
    const cases: [string, string, string][] = [
      [
        'b-network-external',
        `${web()}networks:\n  default:\n    external: true\n    name: ${aNetwork}\n`,
        'networks.default.external',
      ],
      [
        'b-volume-external',
        `${web('    volumes: [d:/d]\n')}volumes:\n  d:\n    external: true\n    name: ${aVolume}\n`,
        'volumes.d.external',
      ],
      [
        'b-container-mode',
        `services:\n  web:\n    image: busybox:1.36\n    command: ["httpd", "-f", "-p", "8080"]\n    network_mode: container:${aContainerName}\n`,
        `network_mode: container:${aContainerName}`,
      ],
      [
        'b-volumes-from',
        `${web(`    volumes_from: ["container:${aContainerName}"]\n`)}`,
        'volumes_from: container:',
      ],
    ];
    for (const [name, compose, message] of cases) {
      world.repo(name, { 'compose.yaml': compose });
      await expectRefused(name, 'policy-check', message, b.client);
    }
    // Nothing of B's joined A's network or mounted A's volume.
    const network = await docker.getNetwork(aNetwork).inspect();
    for (const container of Object.keys(network.Containers ?? {})) {
      const info = await docker.getContainer(container).inspect();
      expect(info.Config.Labels[LABELS.workspaceId]).toBe(aId);
    }
    const users = await docker.listContainers({ all: true, filters: { volume: [aVolume] } });
    expect(users.map((c) => c.Labels[LABELS.workspaceId])).toEqual([aId]);
    const bContainers = await docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.userId}=${b.userId}`] },
    });
    expect(bContainers.map((c) => c.Labels[LABELS.workspaceId])).toEqual([bId]);
  }, 400_000);

  it('deploys links that stay inside the repository, with .env interpolation, reading only repository files', async () => {
    world.repo('inside-links', {
      'compose.yaml': web(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose interpolation from .env is the point
        '    env_file: ./conf/app.env\n    environment:\n      - FROM_DOTENV=${GREETING}\n',
      ),
      'real/app.env': 'FROM_ENV_FILE=inside\n',
      conf: { link: 'real' },
      '.env': 'GREETING=hello-from-dotenv\n',
    });
    const { status } = await deployAndWait(client, { repo: 'inside-links' });
    expect(status.error).toBeNull();
    const url = status.data.deploymentData.metadata.urls.web!;
    expect((await fetch(loopback(url))).status).toBeLessThan(500);
    const [container] = await containersOf(await workspaceId('inside-links'));
    const env = (await docker.getContainer(container!.Id).inspect()).Config.Env;
    expect(env).toEqual(expect.arrayContaining(['FROM_ENV_FILE=inside', 'FROM_DOTENV=hello-from-dotenv']));
    const rows = await ctx.platform.db.select().from(deployments);
    expect(JSON.stringify(rows)).not.toContain(world.marker);
  }, 180_000);
});
