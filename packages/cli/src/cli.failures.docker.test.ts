import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { TOKEN_SCOPES } from '@slipway/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeWith } from '../../../apps/server/src/test/services.js';
import { EXIT } from './cliErrors.js';
import { errorDocumentOf, expectFailure } from './cliProcess.test-helper.js';
import { deploymentShape, statusShape } from './cliShapes.test-helper.js';
import { useSlipwayForCli } from './slipwayUnderTest.test-helper.js';

/** A web service that dies as it starts, saying why on stderr. */
const BROKEN = {
  'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", "echo cannot reach the database >&2; exit 3"]
    ports: ["8080"]
`,
};

/** A Dockerfile whose build fails, saying why, as a real one does (a missing file, exit 3). */
const BROKEN_BUILD = {
  'compose.yaml': `services:
  web:
    build: .
    ports: ["8080"]
`,
  Dockerfile:
    'FROM busybox:1.36\nRUN echo "compiling assets" && echo "error: assets/app.css: no such file" >&2 && exit 3\n',
};

/**
 * Issue 39, item 8, against a real Slipway: a deployment that fails (exit 1, the report on stderr with --json
 * too), a build that fails (its last lines), a failed workspace's status (exit 1), and refusals (exit 3) and an
 * unreachable server (exit 4) said in a sentence, with --json as a document.
 */
describeWith('docker')('the slipway CLI when things fail, against a running Slipway', () => {
  const slipway = useSlipwayForCli(['write']);
  const { engine, cli, baseEnv, tokenOf } = slipway;
  let url: string;
  let token: string;
  beforeAll(() => {
    ({ url, token } = slipway);
  });

  it('a failing deployment exits 1 with the failure report: reason, service state, its last lines', async () => {
    engine.world.repo('broken', BROKEN);
    const run = await cli(['deploy', 'operator/broken']);
    expect(run.code).toBe(EXIT.failed);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Deployment \S+ of broken failed: /);
    expect(run.stderr).toMatch(/ {2}web: (restarting|exited \(exit code 3\)) — /);
    expect(run.stderr).toContain('cannot reach the database');

    // With --json the report still goes to stderr: the CI log says why the job failed.
    const again = await cli(['deploy', 'operator/broken', '--redeploy', '--json']);
    expect(again.code).toBe(EXIT.failed);
    const result = deploymentShape.parse(JSON.parse(again.stdout));
    expect(result.state).toBe('failed');
    expect(result.failure?.failed_services).toContain('web');
    expect(again.stderr).toContain('cannot reach the database');

    // Its first deployment failed: the workspace is failed, and status says so with exit 1.
    const status = await cli(['status', 'broken']);
    expect(status.code, status.stderr).toBe(EXIT.failed);
    expect(status.stdout).toMatch(/^broken: failed {2}\(operator\/broken@main\)\n/);
    expect(status.stdout).toContain('Last error: ');
    expect(
      statusShape.parse(JSON.parse((await cli(['status', 'broken', '--json'])).stdout)).workspace.status,
    ).toBe('failed');
    const all = await cli(['status']);
    expect(all.code).toBe(EXIT.failed);
  });

  it('a failed build prints what the build printed: the build log’s last lines', async () => {
    engine.world.repo('badbuild', BROKEN_BUILD);
    const run = await cli(['deploy', 'operator/badbuild']);
    expect(run.code, run.stderr).toBe(EXIT.failed);
    expect(run.stderr).toMatch(/Deployment \S+ of badbuild failed: The build step failed for service 'web'/);
    const report = run.stderr.slice(run.stderr.indexOf('--- last lines of the build log ---'));
    expect(report).toContain('web | compiling assets');
    expect(report).toContain('error: assets/app.css: no such file');
    expect(report).toContain('returned a non-zero code: 3');
    // Docker colours a build's stderr; the report is plain text.
    expect(report).not.toContain('\x1b');

    const json = await cli(['deploy', 'operator/badbuild', '--redeploy', '--json']);
    expect(json.code).toBe(EXIT.failed);
    const result = deploymentShape.parse(JSON.parse(json.stdout));
    expect(result.build_log).toContainEqual(expect.stringContaining('error: assets/app.css: no such file'));
    expect(result.build_log.length).toBeLessThanOrEqual(20);
    expect(json.stderr).toContain('error: assets/app.css: no such file');
  });

  it('says what went wrong in a sentence: refused (3), unreachable (4), a usage error (2)', async () => {
    const readOnly = await tokenOf(['read']);
    const readerEnv = baseEnv({ SLIPWAY_URL: url, SLIPWAY_TOKEN: readOnly });
    const refused = await cli(['deploy', 'operator/hello'], readerEnv);
    expect(refused).toMatchObject({ code: 3, stdout: '', stderr: 'This API token lacks the deploy scope\n' });
    expect(TOKEN_SCOPES).toContain('deploy');
    const refusedJson = await cli(['deploy', 'operator/hello', '--json'], readerEnv);
    expect(errorDocumentOf(refusedJson)).toEqual({
      error: 'This API token lacks the deploy scope',
      exitCode: EXIT.refused,
      code: 'insufficient_scope',
      status: 403,
    });
    const missing = await cli(['status', 'no-such-workspace', '--json']);
    expectFailure(missing, EXIT.refused, /not found/i);
    expect(errorDocumentOf(missing)).toMatchObject({ status: 404 });

    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unreachable = await cli(
      ['workspaces'],
      baseEnv({ SLIPWAY_URL: `http://127.0.0.1:${closedPort}`, SLIPWAY_TOKEN: token }),
    );
    expect(unreachable).toMatchObject({
      code: EXIT.unreachable,
      stderr: `Cannot reach Slipway at http://127.0.0.1:${closedPort}: connection refused\n`,
    });

    const usage = await cli(['delete', 'hello']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('Pass --yes to delete a workspace when stdin is not a terminal\n');
  });
});
