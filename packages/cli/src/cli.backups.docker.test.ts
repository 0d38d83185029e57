import { backupOverviewSchema } from '@slipway/contract';
import { beforeAll, expect, it } from 'vitest';
import { containersOf, deployAndWait, docker } from '../../../apps/server/src/test/deployments.js';
import { waitUntil } from '../../../apps/server/src/test/runningWorkspaces.js';
import { describeWith } from '../../../apps/server/src/test/services.js';
import { EXIT } from './cliErrors.js';
import { expectFailure } from './cliProcess.test-helper.js';
import { backupShape, backupListShape as listShape, restoreShape } from './cliShapes.test-helper.js';
import { useSlipwayForCli } from './slipwayUnderTest.test-helper.js';

/** A files service on a named volume that refuses to start on a volume holding `poison` (a restore that fails). */
const VAULT = {
  'compose.yaml': `services:
  files:
    image: busybox:1.36
    command: ["sh", "-c", "if [ -f /data/poison ]; then echo poisoned volume >&2; exit 3; fi; exec httpd -f -p 8080 -h /data"]
    ports: ["8080"]
    volumes:
      - uploads:/data
volumes:
  uploads:
`,
};

describeWith('docker')('the slipway CLI’s backup commands against a running Slipway', () => {
  // A restore needs the deploy scope, taking a backup the write scope (which includes deploy).
  const { engine, cli } = useSlipwayForCli(['write']);
  let workspaceId: string;

  /** Runs a shell command in the running files container. */
  async function inFiles(command: string): Promise<void> {
    const [container] = (await containersOf(workspaceId)).filter((c) => c.State === 'running');
    if (!container) throw new Error('the files service is not running');
    const exec = await docker.getContainer(container.Id).exec({ Cmd: ['sh', '-c', command] });
    const stream = await exec.start({});
    stream.resume();
    await new Promise((resolve) => stream.on('end', resolve));
    expect((await exec.inspect()).ExitCode).toBe(0);
  }

  /** Waits until no backup of the vault runs (a restore's safety backup is verified after it). */
  const settled = () =>
    waitUntil(
      async () => {
        const { backups } = backupOverviewSchema.parse(
          (await engine.client.get('/api/workspace-backups/vault')).json(),
        );
        return backups.every((b) => b.status === 'verified' || b.status === 'failed') || undefined;
      },
      180_000,
      'the vault’s backups to settle',
    );

  beforeAll(async () => {
    engine.world.repo('vault', VAULT);
    const deployed = await deployAndWait(engine.client, { repo: 'vault' });
    expect(deployed.status.state, JSON.stringify(deployed.status.error)).toBe('completed');
    const rows = await engine.ctx.platform.db.query.workspaces.findMany();
    workspaceId = rows.find((w) => w.name === 'vault')!.id;
  });

  it('backups create waits until the backup is Verified and says what it holds; list shows it', async () => {
    const empty = await cli(['backups', 'list', 'vault']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toContain('No backups yet: take one with `slipway backups create vault`');

    const run = await cli(['backups', 'create', 'vault']);
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toMatch(/Backing up vault \(backup \S+\)\nBacking up…\n(Verifying…\n)?Verified\n/);
    expect(run.stdout).toMatch(
      /^Backup \S+ of vault: Verified \(\d+\.\d [KMG]?B\)\n {2}files: Volume files, /,
    );

    const json = await cli(['backups', 'create', 'vault', '--json']);
    expect(json.code, json.stderr).toBe(EXIT.ok);
    const made = backupShape.parse(JSON.parse(json.stdout));
    expect(made.backup).toMatchObject({ status: 'verified', trigger: 'manual', cause: null });
    expect(made.backup.parts.map((p) => [p.service, p.method])).toEqual([['files', 'files']]);

    const list = listShape.parse(JSON.parse((await cli(['backups', 'list', 'vault', '--json'])).stdout));
    expect(list.workspace).toBe('vault');
    expect(list.backups[0]?.id).toBe(made.backup.id);
    expect(list.backups.filter((b) => b.status === 'verified')).toHaveLength(2);
    const text = await cli(['backups', 'list', 'vault']);
    expect(text.stdout).toMatch(
      /^Backups of vault: daily at 03:00 UTC, keeping 7 daily and 4 weekly; repository: /,
    );
    expect(text.stdout).toContain(made.backup.id);

    const started = await cli(['backups', 'create', 'vault', '--no-wait', '--json']);
    expect(started.code, started.stderr).toBe(EXIT.ok);
    expect(backupShape.parse(JSON.parse(started.stdout)).backup.status).toBe('running');
    expect(started.stderr).not.toContain('Verified');
    await settled();
  });

  it('backups key needs the secrets:read scope: a write token is refused with exit 3', async () => {
    const run = await cli(['backups', 'key', 'vault']);
    expect(run.code, run.stderr).toBe(EXIT.refused);
    expect(run.stderr).toMatch(/secrets:read/);
    expect(run.stdout).toBe('');
  });

  it('backups restore asks for --yes off a terminal, restores by an id’s first characters, and reports it', async () => {
    const { backups } = listShape.parse(
      JSON.parse((await cli(['backups', 'list', 'vault', '--json'])).stdout),
    );
    const good = backups.find((b) => b.status === 'verified')!;
    const unasked = await cli(['backups', 'restore', 'vault', good.id]);
    expectFailure(unasked, EXIT.usage, 'Pass --yes to restore a backup when stdin is not a terminal');
    const unknown = await cli(['backups', 'restore', 'vault', 'ffffffff', '--yes']);
    expectFailure(unknown, EXIT.refused, 'vault has no backup ffffffff');

    const run = await cli(['backups', 'restore', 'vault', good.id.slice(0, 8), '--yes']);
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toContain(`Restoring backup ${good.id} of vault (restore `);
    expect(run.stderr).toMatch(/\nRestored\n/);
    expect(run.stdout).toBe(`Restored files of vault from backup ${good.id}\n`);
    await settled();
  });

  it('a restore that fails exits 1 with the cause, and the data as it was put back', async () => {
    await inFiles('echo 1 > /data/poison');
    const poisoned = backupShape.parse(
      JSON.parse((await cli(['backups', 'create', 'vault', '--json'])).stdout),
    );
    expect(poisoned.backup.status).toBe('verified');
    await inFiles('rm /data/poison');

    const run = await cli(['backups', 'restore', 'vault', poisoned.backup.id, '--yes', '--json']);
    expect(run.code, run.stderr).toBe(EXIT.failed);
    const { restore } = restoreShape.parse(JSON.parse(run.stdout));
    expect(restore.status).toBe('rolled_back');
    expect(restore.cause).not.toBeNull();
    expect(run.stderr).toContain(
      `Restoring files of vault from backup ${poisoned.backup.id} failed: ${restore.cause}; the data as it was was put back (safety backup ${restore.safety_backup_id})`,
    );
    await settled();
    // The service runs again on the data it had.
    const status = await cli(['status', 'vault', '--json']);
    expect(status.code, status.stderr).toBe(EXIT.ok);
  });
});
