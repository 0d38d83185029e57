import { expect, it } from 'vitest';
import { containersOf, deployAndWait } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

/**
 * A web service that answers at once, started after a port-less worker that runs `workerCommand` (so the
 * worker has been up a while by the time the check first looks).
 */
const webAndWorker = (workerCommand: string) => ({
  'docker-compose.yml':
    'services:\n  web:\n    build: ./web\n    ports:\n      - "8080"\n    depends_on: [worker]\n  worker:\n    build: ./worker\n',
  'web/Dockerfile':
    'FROM busybox:1.36\nRUN mkdir /www && echo up > /www/index.html\nCMD ["httpd", "-f", "-p", "8080", "-h", "/www"]\n',
  'worker/Dockerfile': `FROM busybox:1.36\nCMD ["sh", "-c", ${JSON.stringify(workerCommand)}]\n`,
});

/**
 * The health model's guard for services without ports (healthVerifier.ts): a worker that crashes as it starts,
 * at once or within the 0.5 s it must run, fails the deployment, while web answers at once.
 */
describeWith('docker')('a port-less service that crashes as it starts', () => {
  const engine = useEngineWorld();

  it.each([
    ['quits', 'echo missing DATABASE_URL >&2; exit 3'],
    ['quits-late', 'sleep 0.3; echo lost the queue >&2; exit 4'],
  ])('fails the deployment of %s and leaves nothing running', async (repo, command) => {
    engine.world.repo(repo, webAndWorker(command));
    const { status } = await deployAndWait(engine.client, { repo });
    expect(status.state).toBe('failed');
    expect(status.error).toMatch(/^Health check failed: .*worker/);
    expect(status.steps.find((step) => step.name === 'verify-deployment')?.status).toBe('failed');
    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === repo,
    )!;
    expect(await containersOf(workspace.id)).toHaveLength(0);
  });
});
