import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Backup, Restore } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backups, restores, workspaces } from '../infra/db/schema.js';
import { THROWAWAY_LABEL } from '../infra/docker/throwawayContainers.js';
import { ResticCli } from '../infra/restic/resticCli.js';
import { cleanUpWorkspaces, containersOf, deployAndWait, docker } from '../test/deployments.js';
import { createHostileWorld, type HostileWorld } from '../test/fixtures/hostileRepos.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { execIn } from '../test/serviceExec.js';
import { describeWith } from '../test/services.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { throwawayOwnerOf } from './engine/dockerBackupEngine.js';
import { locationFor } from './repositoryLocation.js';

const WORKER = fileURLToPath(new URL('../test/fixtures/workerProcess.ts', import.meta.url));
/** A killed worker's run is stale after five heartbeats: 5 s here. */
const HEARTBEAT = { DEPLOY_HEARTBEAT_SECONDS: '1' };
const DONE_IN_MS = 180_000;

/** A PostgreSQL database and a files service; the files service will not start on a volume holding `poison`. */
const LEDGER = {
  'docker-compose.yml': [
    'services:',
    '  db:',
    '    image: local/postgres:15',
    '    stop_grace_period: 5s',
    '    volumes:',
    '      - pgdata:/var/lib/postgresql/data',
    '  files:',
    '    image: busybox:1.36',
    `    command: ["sh", "-c", ${JSON.stringify('if [ -f /data/poison ]; then echo poisoned >&2; exit 3; fi; exec httpd -f -p 8080 -h /data')}]`,
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

const PSQL = ['psql', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-tA', '-c'];

/**
 * Issue 38's promise under kill -9: a worker process (the server's job workers, on the same PostgreSQL and data
 * directory) is killed the moment a backup or a restore reaches a step; this platform then takes the run over, as
 * a restarted server would. After each: every row and byte is all the backup's or all what it was before, every
 * service runs, no restic lock or half-written snapshot is left, and nothing of the run is left on the engine.
 */
describeWith('postgres')('kill -9 of the server at each step of a backup and a restore', () => {
  let world: HostileWorld;
  let ctx: TestContext;
  let client: TestClient;
  let workspace: WorkspaceRow;
  let worker: ChildProcess | undefined;
  let runtimeDir: string;
  /** A verified backup and the data it holds; the poisoned one fails its restore's health check. */
  let good: { backup: Backup; state: string };
  let poisoned: Backup;

  function startWorker(crashAt?: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        DATA_DIR: ctx.dataDir,
        DATABASE_URL: ctx.platform.config.databaseUrl!,
        LOCAL_REPOS_DIR: world.root,
        LOG_LEVEL: 'silent',
        ...HEARTBEAT,
        ...(crashAt ? { SLIPWAY_TEST_CRASH_AT: crashAt } : {}),
      },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    worker = child;
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('worker started')) resolve(child);
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`the worker exited (${code ?? signal}) before it started`)),
      );
    });
  }

  const killedAt = (child: ChildProcess) =>
    new Promise<NodeJS.Signals | null>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
      else child.once('exit', (_code, signal) => resolve(signal));
    });

  async function stopWorker() {
    if (worker && worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGKILL');
      await killedAt(worker);
    }
  }

  /** The data, as one line: the database's rows and the files' bytes, checksummed. */
  async function dataState(): Promise<string> {
    const rows = await execIn(workspace.id, 'db', [
      ...PSQL,
      "SELECT count(*) || ':' || md5(coalesce(string_agg(id || '=' || name, ',' ORDER BY id), '')) FROM items",
    ]);
    const files = await execIn(workspace.id, 'files', [
      'sh',
      '-c',
      'cd /data && find . -type f | sort | xargs -r sha256sum | sha256sum',
    ]);
    return `${rows.trim()} ${files.trim()}`;
  }

  const restic = async (sub?: string) => {
    const settings = await ctx.platform.backups.repository.settings(workspace.id);
    const password = await ctx.platform.vault.decrypt(settings!.passwordEnc);
    return new ResticCli(locationFor(ctx.platform.config.backups.store, workspace.id, sub), password, {
      runtimeDir,
    });
  };

  /** This platform takes the dead worker's run over (as a restarted server would) and waits for it to end. */
  async function takeOver(table: typeof backups | typeof restores, id: string) {
    return waitUntil(
      async () => {
        await ctx.platform.backups.recover();
        const [row] = await ctx.platform.db.select().from(table).where(eq(table.id, id));
        return row &&
          ![
            'running',
            'verifying',
            'reading',
            'safety_backup',
            'stopping',
            'restoring',
            'starting',
            'rolling_back',
          ].includes(row.status)
          ? row
          : undefined;
      },
      DONE_IN_MS,
      `the run ${id} to be taken over and ended`,
    );
  }

  /** Every service runs; no lock, no snapshot of a backup that is not Verified, nothing of a run on the engine. */
  async function expectNothingLeft() {
    const running = await waitUntil(
      async () => {
        const containers = await containersOf(workspace.id);
        return containers.length === 2 && containers.every((c) => c.State === 'running')
          ? containers
          : undefined;
      },
      60_000,
      'every service running',
    );
    expect(running).toHaveLength(2);
    const rows = await ctx.platform.db.select().from(backups).where(eq(backups.workspaceId, workspace.id));
    const main = await restic();
    expect(await main.listLocks()).toEqual([]);
    const kept = new Set(
      rows
        .filter((row) => row.status === 'verified' && !row.repository)
        .flatMap((row) => row.parts.map((p) => p.snapshotId)),
    );
    expect((await main.listSnapshots()).map((s) => s.id).filter((id) => !kept.has(id))).toEqual([]);
    for (const row of rows.filter((r) => r.repository)) {
      const safety = await restic(row.repository!);
      expect(await safety.listLocks().catch(() => [])).toEqual([]);
      if (row.status !== 'verified') expect(await safety.listSnapshots().catch(() => [])).toEqual([]);
    }
    const owner = throwawayOwnerOf(path.join(ctx.dataDir, 'backups', '.held'));
    expect(
      await docker.listContainers({ all: true, filters: { label: [`${THROWAWAY_LABEL}=${owner}`] } }),
    ).toEqual([]);
  }

  async function backUp(): Promise<Backup> {
    const started = (await client.post(`/api/workspace-backups/${workspace.name}`)).json() as Backup;
    return waitUntil(
      async () => {
        const now = (
          await client.get(`/api/workspace-backups/${workspace.name}/${started.id}`)
        ).json() as Backup;
        return now.status === 'verified' || now.status === 'failed' ? now : undefined;
      },
      DONE_IN_MS,
      'a backup',
    );
  }

  beforeAll(async () => {
    world = createHostileWorld();
    runtimeDir = await mkdtemp(path.join(tmpdir(), 'slipway-crash-restic-'));
    ctx = await createTestContext({
      database: 'postgres',
      env: { LOCAL_REPOS_DIR: world.root, ...HEARTBEAT },
    });
    client = await new TestClient(ctx.app).signIn('operator');
    world.repo('ledger', LEDGER);
    // This platform never runs the queue: the worker process takes the deployment, the backups and the restores.
    await startWorker();
    const deployed = await deployAndWait(client, { repo: 'ledger' }, 240_000);
    expect(deployed.status.state, JSON.stringify(deployed.status)).toBe('completed');
    [workspace] = (await ctx.platform.db
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
      "CREATE TABLE items (id integer PRIMARY KEY, name text); INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 2000) g",
    ]);
    await execIn(workspace.id, 'files', ['sh', '-c', 'echo "the ledger" > /data/ledger.txt']);
    const backup = await backUp();
    expect(backup.status, backup.cause ?? '').toBe('verified');
    good = { backup, state: await dataState() };
    await execIn(workspace.id, 'files', ['sh', '-c', 'echo 1 > /data/poison']);
    poisoned = await backUp();
    expect(poisoned.status, poisoned.cause ?? '').toBe('verified');
    await execIn(workspace.id, 'files', ['rm', '/data/poison']);
    await stopWorker();
  }, 600_000);

  afterAll(async () => {
    await stopWorker();
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    world?.cleanup();
    if (runtimeDir) await rm(runtimeDir, { recursive: true, force: true });
  });

  it.each(['backup.run:part-written:db', 'backup.run:verifying', 'backup.run:part-verified:db'])(
    'a backup killed at %s ends Failed, with nothing of it left in the repository',
    async (point) => {
      await startWorker(point);
      const started = (await client.post(`/api/workspace-backups/${workspace.name}`)).json() as Backup;
      expect(await killedAt(worker!)).toBe('SIGKILL');
      const ended = await takeOver(backups, started.id);
      expect(ended).toMatchObject({ status: 'failed', cause: 'Slipway restarted during this backup.' });
      await expectNothingLeft();
    },
    DONE_IN_MS + 120_000,
  );

  /** Each restore starts from data that differs from the backup's, so "all before" and "all the backup's" differ. */
  async function restoreKilledAt(point: string, backup: Backup) {
    await execIn(workspace.id, 'db', [
      ...PSQL,
      `DELETE FROM items WHERE id % 7 = ${Math.floor(Math.random() * 7)}; UPDATE items SET name = name || '!' WHERE id < 50`,
    ]);
    await execIn(workspace.id, 'files', [
      'sh',
      '-c',
      `echo "changed $RANDOM" > /data/ledger.txt; echo new > /data/added.txt`,
    ]);
    const before = await dataState();
    expect(before).not.toBe(good.state);
    await startWorker(point);
    const started = (
      await client.post(`/api/workspace-backups/${workspace.name}/${backup.id}/restore`, {})
    ).json() as Restore;
    expect(await killedAt(worker!)).toBe('SIGKILL');
    const ended = await takeOver(restores, started.id);
    await expectNothingLeft();
    const after = await dataState();
    return { ended, before, after };
  }

  it.each([
    'restore.run:reading',
    'restore.run:staged:db',
    'restore.run:safety:part-written:files',
    'restore.run:stopping',
    'restore.run:restoring',
    'restore.run:swapped',
    'restore.run:starting',
    'restore.run:verifying',
    'restore.run:done',
  ])(
    'a restore killed at %s is finished or undone: all the backup’s data or all as it was, every service running',
    async (point) => {
      const { ended, before, after } = await restoreKilledAt(point, good.backup);
      expect(['done', 'failed', 'rolled_back']).toContain(ended.status);
      expect(after).toBe(ended.status === 'done' ? good.state : before);
      // Once the services were stopped, a takeover finishes the restore: the data checked out before it was swapped.
      if (
        !['restore.run:reading', 'restore.run:staged:db', 'restore.run:safety:part-written:files'].includes(
          point,
        )
      ) {
        expect(ended.status, ended.cause ?? '').toBe('done');
      }
    },
    DONE_IN_MS + 120_000,
  );

  it(
    'a restore killed while it puts the data back (its services failed their check) ends rolled back, all as it was',
    async () => {
      const { ended, before, after } = await restoreKilledAt('restore.run:rolling_back', poisoned);
      expect(ended.status, ended.cause ?? '').toBe('rolled_back');
      expect(after).toBe(before);
    },
    DONE_IN_MS + 120_000,
  );

  it(
    'the next backup verifies',
    async () => {
      await startWorker();
      const next = await backUp();
      expect(next.status, next.cause ?? '').toBe('verified');
      await stopWorker();
      await expectNothingLeft();
    },
    DONE_IN_MS,
  );
});
