import { randomUUID } from 'node:crypto';
import type { Backup, BackupOverview, Restore } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backups, restores } from '../infra/db/schema.js';
import { insertWorkspace, waitUntil } from '../test/runningWorkspaces.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import { type BackupEngine, BackupError, type PartResult, type ServiceData } from './engine/backupEngine.js';

/**
 * The backups module's own logic — one at a time, retention, missed schedules, restore roll-back, access — over
 * a stand-in engine that records what it is asked (the engine itself is tested on Docker beside it). The alerts
 * go out through the real notifier to a loopback SMTP server.
 */
function recordingEngine() {
  const calls = {
    removed: [] as string[],
    forgotten: [] as { keep: string[] }[],
    staged: [] as string[],
    swappedIn: [] as string[],
    swappedBack: [] as string[],
    discarded: [] as string[],
  };
  const state = {
    /** Services whose next backUpService fails. */
    failNext: new Set<string>(),
    /** Held backUpService calls, released by the test. */
    gate: undefined as Promise<void> | undefined,
    describeFails: false,
  };
  const data: ServiceData = {
    service: 'db',
    containerId: 'c0ffee',
    image: 'postgres:16',
    method: 'postgres',
    volumes: [{ volume: 'pgdata', dockerVolume: 'p_pgdata', path: '/var/lib/postgresql/data' }],
    stopForCopy: false,
    credentials: {},
  };
  const engine: BackupEngine = {
    openRepository: () =>
      ({
        ensureInitialised: async () => {},
        unlockStale: async () => {},
        check: async () => {},
        listSnapshots: async () => [],
        forget: async (_tags: string[], policy: { keep: string[] }) => {
          calls.forgotten.push({ keep: policy.keep });
        },
        removeSnapshots: async (ids: string[]) => {
          calls.removed.push(...ids);
        },
      }) as unknown as ReturnType<BackupEngine['openRepository']>,
    describeProjectData: async () => {
      if (state.describeFails) throw new BackupError('The Docker Engine did not answer.');
      return [data];
    },
    backUpService: async (_repo, service): Promise<PartResult> => {
      await state.gate;
      if (state.failNext.delete(service.service))
        throw new BackupError('The disk of the backup repository is full.');
      return {
        service: service.service,
        method: service.method,
        volumes: ['pgdata'],
        snapshotId: randomUUID().replaceAll('-', ''),
        sizeBytes: 1000,
        addedBytes: 100,
        fingerprint: { kind: 'tables', serverVersion: '16', tables: { items: 3 } },
      };
    },
    verifyPart: async () => ({ ok: true, checked: '1 table, 3 rows' }),
    readBack: async () => ({ ok: true, checked: '1,000 bytes read back' }),
    stagePart: async (_repo, _data, part, restoreId) => {
      calls.staged.push(part.snapshotId);
      const unit = {
        live: 'p_pgdata',
        livePath: '',
        staging: `staging-${restoreId}`,
        stagingPath: '',
        previous: `previous-${restoreId}`,
        liveExisted: true,
        keep: [],
      };
      return { service: part.service, checked: '1 table, 3 rows', units: [unit] };
    },
    swapIn: async (units) => {
      calls.swappedIn.push(...units.map((unit) => unit.staging));
    },
    swapBack: async (units) => {
      calls.swappedBack.push(...units.map((unit) => unit.previous));
    },
    discardRestore: async (restoreId) => {
      calls.discarded.push(restoreId);
    },
    restoresWithVolumes: async () => [],
    checkLive: async () => ({ ok: true, checked: '1 table, 3 rows' }),
    resumeInterrupted: async () => [],
  };
  return { engine, calls, state };
}

describe('backups (schedule, retention, alerts, restore roll-back)', () => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let owner: { client: TestClient; userId: string };
  const fake = recordingEngine();
  let clock = new Date('2026-03-02T10:00:00Z');

  const overview = async (name: string) =>
    (await owner.client.get(`/api/workspace-backups/${name}`)).json() as BackupOverview;
  const backUpNow = async (name: string) => {
    const started = await owner.client.post(`/api/workspace-backups/${name}`);
    expect(started.statusCode).toBe(202);
    const backup = started.json() as Backup;
    await ctx.platform.backups.idle();
    return (await owner.client.get(`/api/workspace-backups/${name}/${backup.id}`)).json() as Backup;
  };
  const newWorkspace = async () => {
    const workspace = await insertWorkspace(ctx.platform, { userId: owner.userId, withVm: false });
    const saved = await owner.client.put(`/api/alerts/config/${workspace.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [{ sink_type: 'email', enabled: true, config: { to_email: 'ops@example.com' } }],
    });
    expect(saved.statusCode).toBe(200);
    return workspace;
  };

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({
      env: { SMTP_URL: smtp.url },
      backupEngine: fake.engine,
      now: () => clock,
    });
    owner = await signInNewUser(ctx);
    await ctx.platform.runs.startWorkers();
  });

  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('backs up now: Verified, with its parts; the defaults are on, daily at 03:00, 7 daily and 4 weekly', async () => {
    const workspace = await newWorkspace();
    const backup = await backUpNow(workspace.name);
    expect(backup).toMatchObject({ status: 'verified', trigger: 'manual', cause: null, size_bytes: 1000 });
    expect(backup.parts).toEqual([
      {
        service: 'db',
        method: 'postgres',
        volumes: ['pgdata'],
        size_bytes: 1000,
        checked: '1 table, 3 rows',
      },
    ]);
    const { settings, backups } = await overview(workspace.name);
    expect(settings).toMatchObject({
      enabled: true,
      schedule: { kind: 'daily', time: '03:00' },
      keep_daily: 7,
      keep_weekly: 4,
      repository: 'local directory',
      next_backup_at: '2026-03-03T03:00:00.000Z',
      missed_since: null,
    });
    expect(backups.map((b) => b.id)).toEqual([backup.id]);
  });

  it('keeps the repository password only sealed: never in an answer, never in the clear in its row', async () => {
    const workspace = await newWorkspace();
    const answer = await owner.client.get(`/api/workspace-backups/${workspace.name}`);
    const row = await ctx.platform.backups.repository.settings(workspace.id);
    const password = await ctx.platform.vault.decrypt(row!.passwordEnc);
    expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row!.passwordEnc).not.toContain(password);
    expect(answer.body).not.toContain(password);
    expect(answer.body).not.toContain(row!.passwordEnc);
    // Each workspace has its own.
    const other = await newWorkspace();
    await overview(other.name);
    const otherRow = await ctx.platform.backups.repository.settings(other.id);
    expect(await ctx.platform.vault.decrypt(otherRow!.passwordEnc)).not.toBe(password);
  });

  it('answers 409 to Back Up Now while a backup runs', async () => {
    const workspace = await newWorkspace();
    let release = () => {};
    fake.state.gate = new Promise((resolve) => {
      release = resolve;
    });
    const first = await owner.client.post(`/api/workspace-backups/${workspace.name}`);
    expect(first.statusCode).toBe(202);
    const second = await owner.client.post(`/api/workspace-backups/${workspace.name}`);
    expect(second.statusCode).toBe(409);
    expect(second.json().detail ?? second.json().error).toMatch(/running/);
    release();
    fake.state.gate = undefined;
    await ctx.platform.backups.idle();
    expect((await overview(workspace.name)).backups.map((b) => b.status)).toEqual(['verified']);
  });

  it('keeps the newest verified backup whatever the policy, forgets the rest, and alerts on a failed one', async () => {
    const workspace = await newWorkspace();
    const set = await owner.client.put(`/api/workspace-backup-settings/${workspace.name}`, {
      enabled: true,
      schedule: { kind: 'daily', time: '03:00' },
      keep_daily: 1,
      keep_weekly: 0,
    });
    expect(set.statusCode).toBe(200);
    const first = await backUpNow(workspace.name);
    clock = new Date(clock.getTime() + 60 * 60_000);
    const hourLater = await backUpNow(workspace.name);
    // Within 24 hours every backup stays, whatever the daily count.
    expect((await overview(workspace.name)).backups.map((b) => b.id)).toEqual([hourLater.id, first.id]);
    clock = new Date(clock.getTime() + 24 * 60 * 60_000);
    const second = await backUpNow(workspace.name);
    expect(second.status).toBe('verified');
    // A day on, keep 1 daily: the earlier two went, their snapshots removed, the second's pinned in restic's forget.
    const afterTwo = await overview(workspace.name);
    expect(afterTwo.backups.map((b) => b.id)).toEqual([second.id]);
    expect(fake.calls.removed.length).toBeGreaterThan(0);
    expect(first.id).not.toBe(second.id);

    fake.state.failNext.add('db');
    clock = new Date(clock.getTime() + 60 * 60_000);
    const failed = await backUpNow(workspace.name);
    expect(failed).toMatchObject({ status: 'failed', cause: 'The disk of the backup repository is full.' });
    const afterFailure = await overview(workspace.name);
    expect(afterFailure.backups.map((b) => [b.id, b.status])).toEqual([
      [failed.id, 'failed'],
      [second.id, 'verified'],
    ]);
    const mail = await smtp.waitFor((m) => m.subject.includes(`A backup of ${workspace.name} failed`));
    expect(mail.text).toContain('The disk of the backup repository is full.');
  });

  it('sets missed_since and alerts when no backup was verified within 1.5 × the schedule', async () => {
    const workspace = await newWorkspace();
    const hourly = await owner.client.put(`/api/workspace-backup-settings/${workspace.name}`, {
      enabled: true,
      schedule: { kind: 'cron', expression: '0 * * * *' },
      keep_daily: 7,
      keep_weekly: 4,
    });
    expect(hourly.statusCode).toBe(200);
    fake.state.describeFails = true;
    try {
      clock = new Date(clock.getTime() + 80 * 60_000);
      await ctx.platform.backups.runSchedule();
      expect((await overview(workspace.name)).settings.missed_since).toBeNull();
      clock = new Date(clock.getTime() + 20 * 60_000);
      await ctx.platform.backups.runSchedule();
      expect((await overview(workspace.name)).settings.missed_since).toBe(clock.toISOString());
      const mail = await smtp.waitFor((m) =>
        m.subject.includes(`No backup of ${workspace.name} was verified`),
      );
      expect(mail.to).toEqual(['ops@example.com']);
    } finally {
      fake.state.describeFails = false;
    }
    // A verified backup ends it.
    await backUpNow(workspace.name);
    expect((await overview(workspace.name)).settings.missed_since).toBeNull();
  });

  it('starts a backup when the schedule says, once, and moves the next one on', async () => {
    const workspace = await newWorkspace();
    const { settings } = await overview(workspace.name);
    clock = new Date(settings.next_backup_at!);
    await ctx.platform.backups.runSchedule();
    await ctx.platform.backups.runSchedule();
    await ctx.platform.backups.idle();
    const after = await overview(workspace.name);
    expect(after.backups.map((b) => [b.trigger, b.status])).toEqual([['schedule', 'verified']]);
    expect(new Date(after.settings.next_backup_at!).getTime()).toBe(clock.getTime() + 24 * 60 * 60_000);
  });

  it('refuses a cron expression it cannot read, with the reason', async () => {
    const workspace = await newWorkspace();
    const refused = await owner.client.put(`/api/workspace-backup-settings/${workspace.name}`, {
      enabled: true,
      schedule: { kind: 'cron', expression: '61 * * * *' },
      keep_daily: 7,
      keep_weekly: 4,
    });
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json())).toContain('61');
  });

  it('puts the data as it was back when the restored services do not check out', async () => {
    // No container of this workspace runs on the engine: the health model after the swap fails, as a service that
    // does not come back would.
    const workspace = await newWorkspace();
    const backup = await backUpNow(workspace.name);
    const [part] = (await ctx.platform.backups.repository.findBackup(workspace.id, backup.id))!.parts;
    const started = await owner.client.post(
      `/api/workspace-backups/${workspace.name}/${backup.id}/restore`,
      {},
    );
    expect(started.statusCode).toBe(202);
    const restore = started.json() as Restore;
    await ctx.platform.backups.idle();
    const done = (
      await owner.client.get(`/api/workspace-restores/${workspace.name}/${restore.id}`)
    ).json() as Restore;
    expect(done.status).toBe('rolled_back');
    expect(done.cause).toMatch(/^After the restore, db did not come back healthy: /);
    expect(done.cause).toContain('The data as it was just before the restore was put back.');
    expect(done.safety_backup_id).not.toBeNull();
    const safety = await ctx.platform.backups.repository.findBackup(workspace.id, done.safety_backup_id!);
    // Stored in a repository of its own, and verified by reading it back, before anything was touched.
    expect(safety).toMatchObject({
      trigger: 'safety',
      status: 'verified',
      repository: `safety/${restore.id}`,
    });
    // The backup's part was staged and swapped in; then the data as it was went back; the volumes went.
    expect(fake.calls.staged.at(-1)).toBe(part!.snapshotId);
    expect(fake.calls.swappedIn.at(-1)).toBe(`staging-${restore.id}`);
    expect(fake.calls.swappedBack.at(-1)).toBe(`previous-${restore.id}`);
    expect(fake.calls.discarded).toContain(restore.id);
    expect((await overview(workspace.name)).latest_restore?.id).toBe(restore.id);
  });

  it('fails, at start, the backups and restores a crash left running', async () => {
    const workspace = await newWorkspace();
    await overview(workspace.name);
    const [backup] = await ctx.platform.db
      .insert(backups)
      .values({
        workspaceId: workspace.id,
        status: 'verifying',
        trigger: 'manual',
        startedAt: clock,
        heartbeatAt: clock,
      })
      .returning();
    const [restore] = await ctx.platform.db
      .insert(restores)
      .values({
        workspaceId: workspace.id,
        backupId: backup!.id,
        services: ['db'],
        status: 'restoring',
        heartbeatAt: clock,
      })
      .returning();
    await ctx.platform.backups.recover();
    const repository = ctx.platform.backups.repository;
    expect(await repository.findBackup(workspace.id, backup!.id)).toMatchObject({
      status: 'failed',
      cause: 'Slipway restarted during this backup.',
    });
    expect((await repository.findRestore(workspace.id, restore!.id))?.status).toBe('failed');
    await smtp.waitFor((m) => m.subject.includes(`A backup of ${workspace.name} failed`));
    // Nothing is left running: Back Up Now works again.
    expect((await backUpNow(workspace.name)).status).toBe('verified');
  });

  it("answers 404 for another user's workspace, backup and restore", async () => {
    const workspace = await newWorkspace();
    const backup = await backUpNow(workspace.name);
    const stranger = await signInNewUser(ctx);
    for (const response of [
      await stranger.client.get(`/api/workspace-backups/${workspace.name}`),
      await stranger.client.post(`/api/workspace-backups/${workspace.name}`),
      await stranger.client.get(`/api/workspace-backups/${workspace.name}/${backup.id}`),
      await stranger.client.post(`/api/workspace-backups/${workspace.name}/${backup.id}/restore`, {}),
      await stranger.client.get(`/api/workspace-restores/${workspace.name}/${randomUUID()}`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    await waitUntil(() => ctx.platform.backups.idle().then(() => true));
  });
});
