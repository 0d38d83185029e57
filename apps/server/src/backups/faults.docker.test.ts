import { execFile } from 'node:child_process';
import { readdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Backup, BackupKey, Restore } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, backups, workspaces } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';
import { THROWAWAY_LABEL } from '../infra/docker/throwawayContainers.js';
import { containersOf, deployAndWait, docker } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { execIn } from '../test/serviceExec.js';
import { describeWith } from '../test/services.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { throwawayOwnerOf } from './engine/dockerBackupEngine.js';

const run = promisify(execFile);
const DONE_IN_MS = 180_000;
const PSQL = ['psql', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-tA', '-c'];

const VAULT = {
  'docker-compose.yml': [
    'services:',
    '  db:',
    '    image: local/postgres:15',
    '    volumes:',
    '      - pgdata:/var/lib/postgresql/data',
    '  files:',
    '    image: busybox:1.36',
    '    command: ["httpd", "-f", "-p", "8080", "-h", "/data"]',
    '    stop_grace_period: 1s',
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

const asRoot = process.getuid?.() === 0;

/**
 * Issue 38's faults, on the real engine, restic and PostgreSQL: a repository that is full or read-only, a
 * restic killed mid-backup, a database stopped mid-dump, a pack removed before a restore and found by the
 * re-check of old backups; and the disaster recovery the key export promises, with plain restic.
 */
describeWith('docker')('backups under faults', () => {
  const engine = useEngineWorld();
  let workspace: WorkspaceRow;
  const api = () => engine.client;
  const repoDir = () => path.join(engine.ctx.dataDir, 'backups', workspace.id);

  const backUp = async () => {
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
        return ['verified', 'failed', 'damaged'].includes(now.status) ? now : undefined;
      },
      DONE_IN_MS,
      `backup ${backup.id}`,
    );
  const rows = async () => (await execIn(workspace.id, 'db', [...PSQL, 'SELECT count(*) FROM items'])).trim();
  const files = () => execIn(workspace.id, 'files', ['sh', '-c', 'cd /data && ls -A | sort | tr "\\n" " "']);

  /** The workspace's throwaway containers (none may be left after a failure), and its services all running. */
  async function expectEngineClean() {
    const owner = throwawayOwnerOf(path.join(engine.ctx.dataDir, 'backups', '.held'));
    expect(
      await docker.listContainers({ all: true, filters: { label: [`${THROWAWAY_LABEL}=${owner}`] } }),
    ).toEqual([]);
    const containers = await containersOf(workspace.id);
    expect(containers.map((c) => [c.Labels[LABELS.composeService], c.State]).sort()).toEqual([
      ['db', 'running'],
      ['files', 'running'],
    ]);
  }

  beforeAll(async () => {
    engine.world.repo('vault', VAULT);
    const deployed = await deployAndWait(api(), { repo: 'vault' }, 240_000);
    expect(deployed.status.state, JSON.stringify(deployed.status)).toBe('completed');
    [workspace] = (await engine.ctx.platform.db
      .select()
      .from(workspaces)
      .where(eq(workspaces.repoName, 'vault'))) as [WorkspaceRow];
    await waitUntil(
      () =>
        execIn(workspace.id, 'db', [...PSQL, 'SELECT 1']).then(
          () => true,
          () => false,
        ),
      60_000,
      'postgres accepting connections',
    );
    // Enough rows that a dump takes a while (a database stopped mid-dump), and files with a big one.
    await execIn(workspace.id, 'db', [
      ...PSQL,
      "CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items SELECT g, repeat('item ' || g, 20) FROM generate_series(1, 150000) g",
    ]);
    await execIn(workspace.id, 'files', [
      'sh',
      '-c',
      'echo "the vault" > /data/vault.txt && head -c 60000000 /dev/urandom > /data/big.bin',
    ]);
  }, 600_000);

  it.skipIf(!asRoot)(
    'a full repository fails the backup with a sentence, leaves nothing behind, and the next one verifies',
    async () => {
      await run('mkdir', ['-p', repoDir()]);
      await run('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', repoDir()]);
      try {
        const failed = await finished(await backUp());
        expect(failed.status).toBe('failed');
        expect(failed.cause).toMatch(/^The disk of the backup repository is full: /);
        await expectEngineClean();
      } finally {
        await run('umount', [repoDir()]);
      }
      const next = await finished(await backUp());
      expect(next.status, next.cause ?? '').toBe('verified');
    },
    3 * DONE_IN_MS,
  );

  it.skipIf(!asRoot)(
    'a read-only repository fails the backup with a sentence and changes nothing',
    async () => {
      const before = await engine.ctx.platform.db
        .select()
        .from(backups)
        .where(eq(backups.workspaceId, workspace.id));
      await run('mount', ['--bind', repoDir(), repoDir()]);
      await run('mount', ['-o', 'remount,ro,bind', repoDir()]);
      try {
        const failed = await finished(await backUp());
        expect(failed.status).toBe('failed');
        expect(failed.cause).toMatch(/read-only/);
        await expectEngineClean();
      } finally {
        await run('umount', [repoDir()]);
      }
      const after = await engine.ctx.platform.db
        .select()
        .from(backups)
        .where(eq(backups.workspaceId, workspace.id));
      expect(after.filter((row) => row.status === 'verified').map((row) => row.id)).toEqual(
        before.filter((row) => row.status === 'verified').map((row) => row.id),
      );
    },
    2 * DONE_IN_MS,
  );

  it(
    'a restic killed mid-backup: the copy’s container is removed, the service resumed, no lock stops the next backup',
    async () => {
      const started = await backUp();
      // The files part runs restic while the files service is paused: that restic is killed, as a crash would.
      const resticPid = await waitUntil(
        async () => {
          // This process's own restic (another test file's may run beside it), writing this workspace's files.
          const { stdout } = await run('ps', ['-eo', 'pid=,ppid=,args=']);
          const line = stdout
            .split('\n')
            .map((l) => l.trim().split(/\s+/))
            .find(
              ([, ppid, ...args]) =>
                Number(ppid) === process.pid &&
                args[0] === '/usr/bin/restic' &&
                args.includes(repoDir()) &&
                args.includes('files.tar'),
            );
          return line ? Number(line[0]) : undefined;
        },
        DONE_IN_MS,
        'restic backing up the files',
      );
      process.kill(resticPid, 'SIGKILL');
      const failed = await finished(started);
      expect(failed.status).toBe('failed');
      expect(failed.cause).toMatch(/restic/);
      await expectEngineClean();
      const states = await Promise.all(
        (await containersOf(workspace.id)).map((c) => docker.getContainer(c.Id).inspect()),
      );
      expect(states.every((s) => s.State.Running && !s.State.Paused)).toBe(true);
      const next = await finished(await backUp());
      expect(next.status, next.cause ?? '').toBe('verified');
    },
    3 * DONE_IN_MS,
  );

  it(
    'a database stopped mid-dump fails the backup with a sentence; nothing half-written is kept',
    async () => {
      const verifiedBefore = (
        await engine.ctx.platform.db.select().from(backups).where(eq(backups.workspaceId, workspace.id))
      ).filter((row) => row.status === 'verified').length;
      const started = await backUp();
      const [db] = (await containersOf(workspace.id)).filter((c) => c.Labels[LABELS.composeService] === 'db');
      await waitUntil(
        async () => {
          const top = await docker.getContainer(db!.Id).top();
          return (top.Processes as string[][]).some((p) => p.join(' ').includes('pg_dumpall')) || undefined;
        },
        DONE_IN_MS,
        'pg_dumpall running',
      );
      await docker.getContainer(db!.Id).stop({ t: 5 });
      const failed = await finished(started);
      expect(failed.status).toBe('failed');
      expect(failed.cause).toMatch(/^(Backing up db failed|The dump of db failed)/);
      await docker.getContainer(db!.Id).start();
      await waitUntil(
        () =>
          rows().then(
            () => true,
            () => false,
          ),
        60_000,
        'postgres accepting connections again',
      );
      await expectEngineClean();
      const after = (
        await engine.ctx.platform.db.select().from(backups).where(eq(backups.workspaceId, workspace.id))
      ).filter((row) => row.status === 'verified').length;
      expect(after).toBe(verifiedBefore);
    },
    2 * DONE_IN_MS,
  );

  it(
    'a backup whose pack was removed is refused by a restore, marked Damaged and alerted; the live data is untouched',
    async () => {
      const since = Date.now();
      const backup = await finished(await backUp());
      expect(backup.status, backup.cause ?? '').toBe('verified');
      // The packs written by this backup (what its data is in) go missing, as on a damaged disk.
      const data = path.join(repoDir(), 'data');
      const moved: [string, string][] = [];
      for (const sub of await readdir(data)) {
        for (const pack of await readdir(path.join(data, sub))) {
          const file = path.join(data, sub, pack);
          if ((await stat(file)).mtimeMs >= since) moved.push([file, `${file}.aside`]);
        }
      }
      expect(moved.length).toBeGreaterThan(0);
      for (const [from, to] of moved) await rename(from, to);
      try {
        await execIn(workspace.id, 'db', [...PSQL, 'DELETE FROM items WHERE id <= 10']);
        const rowsBefore = await rows();
        const filesBefore = await files();
        const started = await api().post(`/api/workspace-backups/${workspace.name}/${backup.id}/restore`, {});
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
        expect(done.status).toBe('failed');
        expect(done.cause).toMatch(
          /^The backup could not be read back as it was stored, so nothing was changed: /,
        );
        expect(await rows()).toBe(rowsBefore);
        expect(await files()).toBe(filesBefore);
        const damaged = (
          await api().get(`/api/workspace-backups/${workspace.name}/${backup.id}`)
        ).json() as Backup;
        expect(damaged.status).toBe('damaged');
        const alerts = (await api().get(`/api/alerts-recent/${workspace.name}`)).json() as {
          title: string;
        }[];
        expect(alerts.map((a) => a.title)).toContain(
          `The backup of ${workspace.name} from ${backup.started_at} is damaged`,
        );
        await expectEngineClean();
      } finally {
        for (const [from, to] of moved) await rename(to, from);
      }
    },
    4 * DONE_IN_MS,
  );

  it(
    'the re-check of old backups reads them back and finds one whose data is gone',
    async () => {
      const since = Date.now();
      const backup = await finished(await backUp());
      expect(backup.status, backup.cause ?? '').toBe('verified');
      // Verified eight days ago: due for its re-check (every other backup was just read back, or is newer).
      const old = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
      await engine.ctx.platform.db
        .update(backups)
        .set({ verifiedAt: old, recheckedAt: null })
        .where(eq(backups.id, backup.id));
      await engine.ctx.platform.db
        .update(backups)
        .set({ recheckedAt: new Date() })
        .where(eq(backups.workspaceId, workspace.id));
      await engine.ctx.platform.db
        .update(backups)
        .set({ recheckedAt: null })
        .where(eq(backups.id, backup.id));
      const data = path.join(repoDir(), 'data');
      const moved: [string, string][] = [];
      for (const sub of await readdir(data)) {
        for (const pack of await readdir(path.join(data, sub))) {
          const file = path.join(data, sub, pack);
          if ((await stat(file)).mtimeMs >= since) moved.push([file, `${file}.aside`]);
        }
      }
      for (const [from, to] of moved) await rename(from, to);
      try {
        const found = await engine.ctx.platform.backups.recheck();
        expect(found).toContain(backup.id);
        const listed = (
          await api().get(`/api/workspace-backups/${workspace.name}/${backup.id}`)
        ).json() as Backup;
        expect(listed.status).toBe('damaged');
        expect(listed.cause).toMatch(/^Reading (db|files)'s part back failed: /);
      } finally {
        for (const [from, to] of moved) await rename(to, from);
      }
    },
    3 * DONE_IN_MS,
  );

  it(
    'the key export is audited, and with it plain restic lists the snapshots and writes a part out',
    async () => {
      const backup = await finished(await backUp());
      expect(backup.status, backup.cause ?? '').toBe('verified');
      const answer = await api().post(`/api/workspace-backup-key/${workspace.name}`);
      expect(answer.statusCode).toBe(200);
      const key = answer.json() as BackupKey;
      expect(key.repository).toBe(`--repo ${repoDir()}`);
      const audit = await engine.ctx.platform.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'backup_key.exported'));
      expect(audit.map((entry) => entry.detail)).toContainEqual(
        expect.objectContaining({ workspace: workspace.name, workspace_id: workspace.id }),
      );
      // Plain restic, the key and nothing of Slipway's: the repository's snapshots and the files part.
      const env = { ...process.env, RESTIC_PASSWORD: key.password };
      const { stdout } = await run(
        'restic',
        [...key.repository.split(' '), 'snapshots', '--json', '--no-lock'],
        {
          env,
        },
      );
      const snapshots = JSON.parse(stdout) as { id: string; paths: string[] }[];
      const filesPart = (await engine.ctx.platform.backups.repository.findBackup(
        workspace.id,
        backup.id,
      ))!.parts.find((part) => part.service === 'files')!;
      expect(snapshots.map((s) => s.id)).toContain(filesPart.snapshotId);
      const out = path.join(engine.ctx.dataDir, 'files.tar');
      await run(
        'sh',
        [
          '-c',
          'restic "$@" > "$OUT"',
          'sh',
          ...key.repository.split(' '),
          'dump',
          '--no-lock',
          filesPart.snapshotId,
          '/files.tar',
        ],
        {
          env: { ...env, OUT: out },
          maxBuffer: 1024 * 1024,
        },
      );
      const { stdout: listing } = await run('tar', ['-xOf', out, './uploads/vault.txt']);
      expect(listing).toBe('the vault\n');
      expect((await readFile(out)).length).toBeGreaterThan(60_000_000);
    },
    2 * DONE_IN_MS,
  );
});
