import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowStatus } from '@slipway/contract';
import { expect, it } from 'vitest';
import { type ComposeCli, createComposeCli } from '../infra/compose/composeCli.js';
import { LABELS } from '../infra/docker/conventions.js';
import { containersOf, deployAndWait, docker, NEVER_LISTENS, SERVE_PAGE } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

/**
 * Issue 27: nothing Slipway writes holds a workspace variable's value in the clear. The variables are used in
 * `environment:`, `command:`, `build.args` and labels; the workspace is deployed, redeployed, fails a deployment
 * and is rolled back. Every time Compose runs, and at the end, every file under DATA_DIR (the embedded database,
 * the checkouts, the revision plans, the run directories) and every project file Compose is given are searched
 * for the value's bytes, and for each line of a multi-line value; the build context sent is searched in the
 * image it was copied into.
 */
const SECRET = `tok-${randomBytes(12).toString('hex')}`;
const LINES = [1, 2, 3].map((n) => `line${n}-${randomBytes(10).toString('hex')}`);
const MULTI_LINE = `${LINES.join('\n')}\n`;
const NEEDLES = [SECRET, ...LINES];

const version = (page: string, webCommand: string) => ({
  'compose.yaml': `services:
  web:
    build:
      context: ./web
      args:
        BUILD_TOKEN: \${SECRET_TOKEN}
    command: ["sh", "-c", "test -n '\${SECRET_TOKEN}' && ${webCommand}"]
    ports: ["8080"]
    environment:
      SECRET_TOKEN: \${SECRET_TOKEN:-unset}
      CERTIFICATE: \${MULTI_LINE}
    labels:
      app.token: \${SECRET_TOKEN}
`,
  // The context is copied into the image whole, so what was sent can be searched afterwards.
  'web/Dockerfile': `FROM busybox:1.36\nARG BUILD_TOKEN\nCOPY . /context\nRUN mkdir -p /www && echo '${page}' > /www/index.html\n`,
});

/** Every file under `root` whose bytes hold one of the needles, with the needle. */
function filesHolding(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const bytes = readFileSync(full);
        for (const needle of NEEDLES) if (bytes.includes(needle)) found.push(`${full}: ${needle}`);
      }
    }
  };
  walk(root);
  return found;
}

describeWith('docker')('secrets at rest', () => {
  const seen = { composeRuns: 0, leaks: [] as string[] };
  /** The real Compose CLI, looking at the disk each time it is given a project: the moment files hold most. */
  const watchingCompose = async (): Promise<ComposeCli> => {
    const real = await createComposeCli();
    return {
      flavour: real.flavour,
      run(project, files, args, options) {
        seen.composeRuns++;
        seen.leaks.push(...filesHolding(engine.ctx.dataDir));
        for (const file of files) {
          const text = readFileSync(file);
          for (const needle of NEEDLES) if (text.includes(needle)) seen.leaks.push(`${file}: ${needle}`);
        }
        return real.run(project, files, args, options);
      },
    };
  };
  const engine = useEngineWorld(
    { DEPLOY_HEALTH_TIMEOUT_SECONDS: '10' },
    { databaseOnDisk: true, compose: watchingCompose },
  );

  it('keeps every value of a variable out of every file, through deploy, redeploy, failure and rollback', async () => {
    const { client, world, ctx } = engine;
    world.repo('vault', version('one', SERVE_PAGE));
    const upload = await client.post('/api/env-variables/vault/upload', {
      variables: [
        { key: 'SECRET_TOKEN', value: SECRET },
        { key: 'MULTI_LINE', value: MULTI_LINE },
      ],
    });
    expect(upload.statusCode).toBe(200);

    const first = await deployAndWait(client, { repo: 'vault' });
    expect(first.status.error).toBeNull();
    const workspace = (await ctx.platform.db.query.workspaces.findMany()).find((w) => w.name === 'vault')!;

    // Compose put every value back where the project used it.
    const web = async () => {
      const listed = (await containersOf(workspace.id)).find(
        (c) => c.Labels[LABELS.composeService] === 'web' && c.State === 'running',
      )!;
      return docker.getContainer(listed.Id).inspect();
    };
    const running = await web();
    expect(running.Config.Env).toEqual(
      expect.arrayContaining([`SECRET_TOKEN=${SECRET}`, `CERTIFICATE=${MULTI_LINE}`]),
    );
    expect(running.Config.Labels['app.token']).toBe(SECRET);
    expect(running.Config.Cmd?.join(' ')).toContain(`test -n '${SECRET}'`);

    world.repo('vault', version('two', SERVE_PAGE));
    const second = await deployAndWait(client, { repo: 'vault', workflowType: 'redeploy' });
    expect(second.status.error).toBeNull();

    world.repo('vault', version('three', NEVER_LISTENS));
    const failed = await deployAndWait(client, { repo: 'vault', workflowType: 'redeploy' });
    expect(failed.status.state).toBe('failed');

    const sessionId = randomUUID();
    const rollback = await client.post(`/api/workspace-rollback/vault/${first.deploymentId}`, { sessionId });
    expect(rollback.statusCode).toBe(200);
    let status: WorkflowStatus;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await client.get(`/api/workflow/deployment/status/${sessionId}`)).json() as WorkflowStatus;
    } while (status.state === 'started');
    expect(status.error).toBeNull();
    expect((await web()).Config.Labels['app.token']).toBe(SECRET);

    // The plans of the kept versions are there (and sealed): three successful deployments.
    expect(readdirSync(path.join(ctx.dataDir, 'revisions', workspace.id))).toHaveLength(3);
    expect(seen.composeRuns).toBeGreaterThanOrEqual(4);
    expect(seen.leaks).toEqual([]);
    expect(filesHolding(ctx.dataDir)).toEqual([]);

    // The build context as sent, copied into the image by the Dockerfile.
    const archive = await docker.getContainer((await web()).Id).getArchive({ path: '/context' });
    const chunks: Buffer[] = [];
    for await (const chunk of archive) chunks.push(chunk as Buffer);
    const context = Buffer.concat(chunks);
    expect(context.includes('Dockerfile')).toBe(true);
    for (const needle of NEEDLES) expect(context.includes(needle)).toBe(false);
  });
});
