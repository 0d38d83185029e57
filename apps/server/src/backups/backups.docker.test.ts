import { randomUUID } from 'node:crypto';
import type { Backup, BackupOverview, Restore } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { backupSettings, workspaces } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';
import { containersOf, deployAndWait, docker } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { execIn } from '../test/serviceExec.js';
import { describeWith } from '../test/services.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const DONE_IN_MS = 180_000;
/** The files service refuses to start on a volume holding `poison`: how a restore is made to fail its health check. */
const FILES_COMMAND =
  'if [ -f /data/poison ]; then echo "poisoned volume" >&2; exit 3; fi; echo hello > /data/hello.txt; exec httpd -f -p 8080 -h /data';

const LEDGER = {
  'docker-compose.yml': [
    'services:',
    '  db:',
    '    image: local/postgres:15',
    '    volumes:',
    '      - pgdata:/var/lib/postgresql/data',
    '  files:',
    '    image: busybox:1.36',
    `    command: ["sh", "-c", ${JSON.stringify(FILES_COMMAND)}]`,
    '    ports:',
    '      - "8080"',
    '    volumes:',
    '      - uploads:/data',
    'volumes:',
    '  pgdata:',
    '  uploads:',
    '',
  ].join('\n'),
};

/** The lines of the service's container log since `since` (seconds) that hold an ERROR. */
async function errorsLogged(workspace: WorkspaceRow, service: string, since: number): Promise<string[]> {
  const containers = await containersOf(workspace.id);
  const container = containers.find((c) => c.Labels[LABELS.composeService] === service);
  if (!container) throw new Error(`${service} has no container`);
  const log = await docker.getContainer(container.Id).logs({ stdout: true, stderr: true, since });
  return log
    .toString('utf8')
    .split('\n')
    .filter((line) => line.includes('ERROR:'));
}

const PSQL = ['psql', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-tA', '-c'];

/**
 * Issue 30 through the real engine (restic, real PostgreSQL and a files volume on this Docker Engine), via the
 * API: Back Up Now → Verified; one at a time; retention keeps the newest verified backup when a newer one
 * fails; and a restore whose services fail their health check puts the data as it was back.
 */
describeWith('docker')('backups on the real engine', () => {
  const engine = useEngineWorld();
  let workspace: WorkspaceRow;
  const api = () => engine.client;

  const backUpNow = async () => {
    const started = await api().post(`/api/workspace-backups/${workspace.name}`);
    expect(started.statusCode).toBe(202);
    return started.json() as Backup;
  };
  const finished = (backup: Backup) =>
    waitUntil(
      async () => {
        const now = (
          await api().get(`/api/workspace-backups/${workspace.name}/${backup.id}`)
        ).json() as Backup;
        return now.status === 'verified' || now.status === 'failed' ? now : undefined;
      },
      DONE_IN_MS,
      `backup ${backup.id}`,
    );
  const overview = async () =>
    (await api().get(`/api/workspace-backups/${workspace.name}`)).json() as BackupOverview;

  beforeAll(async () => {
    engine.world.repo('ledger', LEDGER);
    const deployed = await deployAndWait(api(), { repo: 'ledger' }, 240_000);
    expect(deployed.status.state, JSON.stringify(deployed.status)).toBe('completed');
    [workspace] = (await engine.ctx.platform.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.repoName, 'ledger'))) as [WorkspaceRow];
    await waitUntil(
      () =>
        execIn(workspace.id, 'db', [...PSQL, 'SELECT 1']).then(
          () => true,
          () => false,
        ),
      60_000,
      'postgres accepting connections',
    );
    await execIn(workspace.id, 'db', [
      ...PSQL,
      "CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 1000) g",
    ]);
  }, 300_000);

  it(
    'backs up now: the PostgreSQL dump and the files, each Verified by restoring it; 409 meanwhile',
    async () => {
      const backup = await backUpNow();
      expect(backup.status).toBe('running');
      const again = await api().post(`/api/workspace-backups/${workspace.name}`);
      expect(again.statusCode).toBe(409);
      const done = await finished(backup);
      expect(done.cause).toBeNull();
      expect(done.status).toBe('verified');
      expect(done.parts.map((part) => [part.service, part.method])).toEqual([
        ['db', 'postgres'],
        ['files', 'files'],
      ]);
      expect(done.parts.every((part) => part.checked)).toBe(true);
    },
    DONE_IN_MS + 60_000,
  );

  it(
    'keeps the newest verified backup when a newer one fails (keep 1 daily)',
    async () => {
      const set = await api().put(`/api/workspace-backup-settings/${workspace.name}`, {
        enabled: true,
        schedule: { kind: 'daily', time: '03:00' },
        keep_daily: 1,
        keep_weekly: 0,
      });
      expect(set.statusCode).toBe(200);
      const verified = await finished(await backUpNow());
      expect(verified.status, verified.cause ?? '').toBe('verified');
      // Every backup of the last 24 hours stays besides the 1 daily: the newest verified is this one.
      expect((await overview()).backups.filter((b) => b.status === 'verified')[0]?.id).toBe(verified.id);

      // A wrong repository password: the next backup fails with restic's reason, and nothing is forgotten.
      const [settings] = await engine.ctx.platform.db
        .select()
        .from(backupSettings)
        .where(eq(backupSettings.workspaceId, workspace.id));
      const wrong = await engine.ctx.platform.vault.encrypt('not-the-password');
      await engine.ctx.platform.db
        .update(backupSettings)
        .set({ passwordEnc: wrong })
        .where(eq(backupSettings.workspaceId, workspace.id));
      try {
        const failed = await finished(await backUpNow());
        expect(failed.status).toBe('failed');
        expect(failed.cause).toMatch(/password/i);
      } finally {
        await engine.ctx.platform.db
          .update(backupSettings)
          .set({ passwordEnc: settings!.passwordEnc })
          .where(eq(backupSettings.workspaceId, workspace.id));
      }
      const after = await overview();
      expect(after.backups[0]?.status).toBe('failed');
      expect(after.backups.filter((b) => b.status === 'verified')[0]?.id).toBe(verified.id);
    },
    2 * DONE_IN_MS,
  );

  it(
    'restores the database and the files of a verified backup, the app runs, and the restore is recorded',
    async () => {
      await execIn(workspace.id, 'files', ['sh', '-c', 'echo "Quarterly report" > /data/report.txt']);
      const backup = await finished(await backUpNow());
      expect(backup.status, backup.cause ?? '').toBe('verified');
      await execIn(workspace.id, 'db', [...PSQL, 'DELETE FROM items WHERE id <= 10']);
      await execIn(workspace.id, 'files', ['rm', '/data/report.txt']);

      const since = Math.floor(Date.now() / 1000);
      const started = await api().post(`/api/workspace-backups/${workspace.name}/${backup.id}/restore`, {});
      expect(started.statusCode).toBe(202);
      const restore = started.json() as Restore;
      expect(restore.services).toEqual(['db', 'files']);
      // A redeploy waits for the restore (its safety backup alone takes seconds), as a restore waits for it.
      const redeploy = await api().post('/api/workflow/deployment/start', {
        sessionId: randomUUID(),
        owner: 'operator',
        repo: 'ledger',
        branch: 'main',
        workflowType: 'redeploy',
      });
      expect(redeploy.statusCode).toBe(409);
      expect(redeploy.json()).toMatchObject({
        detail: 'A restore of this workspace is running: deploy when it has finished',
      });
      const done = await waitUntil(
        async () => {
          const now = (
            await api().get(`/api/workspace-restores/${workspace.name}/${restore.id}`)
          ).json() as Restore;
          return ['done', 'failed', 'rolled_back'].includes(now.status) ? now : undefined;
        },
        3 * DONE_IN_MS,
        'the restore',
      );
      expect(done.status, done.cause ?? '').toBe('done');
      expect((await execIn(workspace.id, 'db', [...PSQL, 'SELECT count(*) FROM items'])).trim()).toBe('1000');
      expect(await execIn(workspace.id, 'files', ['cat', '/data/report.txt'])).toContain('Quarterly report');
      // Loading the dump over roles that exist logs no `role "postgres" already exists` (or any other ERROR).
      expect(await errorsLogged(workspace, 'db', since)).toEqual([]);
      expect((await overview()).latest_restore).toMatchObject({ id: restore.id, status: 'done' });
      const recent = (await api().get(`/api/alerts-recent/${workspace.name}`)).json() as { title: string }[];
      expect(recent.map((alert) => alert.title)).toContain(`Restored backup from ${backup.started_at}`);
      // The safety backup was stored and verified before anything was overwritten.
      const safety = await finished({ id: done.safety_backup_id! } as Backup);
      expect(safety.status, safety.cause ?? '').toBe('verified');
    },
    4 * DONE_IN_MS,
  );

  it(
    'puts the data as it was back when the restored services fail their health check',
    async () => {
      await execIn(workspace.id, 'files', ['sh', '-c', 'echo 1 > /data/poison']);
      const poisoned = await finished(await backUpNow());
      expect(poisoned.status, poisoned.cause ?? '').toBe('verified');
      await execIn(workspace.id, 'files', ['rm', '/data/poison']);

      const started = await api().post(`/api/workspace-backups/${workspace.name}/${poisoned.id}/restore`, {
        service: 'files',
      });
      expect(started.statusCode).toBe(202);
      const restore = started.json() as Restore;
      const done = await waitUntil(
        async () => {
          const now = (
            await api().get(`/api/workspace-restores/${workspace.name}/${restore.id}`)
          ).json() as Restore;
          return ['done', 'failed', 'rolled_back'].includes(now.status) ? now : undefined;
        },
        3 * DONE_IN_MS,
        'the restore',
      );
      expect(done.status, done.cause ?? '').toBe('rolled_back');
      const safety = await finished({ id: done.safety_backup_id! } as Backup);
      expect(safety.status, safety.cause ?? '').toBe('verified');
      expect(done.cause).toMatch(/^After the restore, files did not come back healthy: /);
      expect(done.cause).toContain(
        'The data as it was just before the restore was put back. files passed the health check again.',
      );
      // The data as it was (no poison) is back, and the service runs again.
      const served = await waitUntil(
        () => execIn(workspace.id, 'files', ['ls', '/data']).catch(() => undefined),
        60_000,
        'files running again',
      );
      expect(served).not.toContain('poison');
      expect(served).toContain('hello.txt');
    },
    4 * DONE_IN_MS,
  );
});
