import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { TEST_IMAGE, testDocker, waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { lastLinesOf } from './crashReport.js';

const docker = testDocker();
/** First run: prints and dies. Started again by the engine (same filesystem): prints and stays up. */
const CRASH_ONCE = [
  'if [ ! -f /crashed ]; then',
  '  touch /crashed; echo "loading config"; echo "panic: index out of range" >&2; exit 3;',
  'fi;',
  'echo "second boot"; exec sleep 600',
].join(' ');

describeWith('docker')('the lines a crash alert carries', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const id of created) await docker.getContainer(id).remove({ force: true });
  });

  it("are the dead run's when a check finds the crash after the engine restarted the container", async () => {
    const container = await docker.createContainer({
      name: `slipway-test-crash-report-${randomBytes(3).toString('hex')}`,
      Image: TEST_IMAGE,
      Cmd: ['sh', '-c', CRASH_ONCE],
      HostConfig: { RestartPolicy: { Name: 'always' } },
    });
    created.push(container.id);
    await container.start();
    // The state a check meets when the die event is handled late: restarted and printing again.
    await waitUntil(
      async () => (await container.logs({ stdout: true, stderr: true })).toString().includes('second boot'),
      15_000,
      'the second run',
    );
    const lines = (await lastLinesOf(docker, container.id)).map((line) => line.line);
    expect(lines).toEqual(expect.arrayContaining(['loading config', 'panic: index out of range']));
    expect(lines).not.toContain('second boot');
  });
});
