import { rm } from 'node:fs/promises';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { AlertsService } from '../alerts/alertsService.js';
import type { BackupStore } from '../config/backupConfig.js';
import type { BackupEngine } from '../infra/backup/backupEngine.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { Vault } from '../infra/vault/vault.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBackupAlerts } from './backupAlerts.js';
import { type RunDeps, runBackup, STALE_AFTER_MS } from './backupRun.js';
import { createBackupScheduler } from './backupScheduler.js';
import { type BackupRow, createBackupsRepository, type RestoreRow } from './backupsRepository.js';
import { createBackupsService } from './backupsService.js';
import { describeStore, locationFor } from './repositoryLocation.js';
import { type HealthModel, healthChecker } from './restoreHealth.js';
import { runRestore } from './restoreRun.js';
import { applyRetention } from './retentionPass.js';

/**
 * Backups, assembled: the service the routes call, the runs it launches (one backup or restore per workspace at
 * a time, by the settings row's lock), and ONE background task (in the replica holding its lease) that starts
 * scheduled backups, raises missed-schedule alerts and fails work a crash left marked as running.
 */
export function createBackupsModule(deps: {
  db: Db;
  vault: Vault;
  kv: KeyValueStore;
  logger: Logger;
  store: BackupStore;
  engine: BackupEngine;
  docker: Docker;
  alerts: Pick<AlertsService, 'raise' | 'recover' | 'record'>;
  workspaces: Pick<WorkspacesRepository, 'findOwned' | 'findById' | 'listWatched'>;
  /** The serving deployment's service roles and host ports, for the health check after a restore. */
  healthModel: (workspace: WorkspaceRow) => Promise<HealthModel | undefined>;
  healthTimeoutMs: number;
  /** Whether a deployment of the workspace runs (deployments/ owns that; the platform passes it in). */
  deploymentInProgress?: (workspace: WorkspaceRow) => Promise<boolean>;
  /** One server process on this data (no REDIS_URL): at start, everything marked running was left by a crash. */
  singleProcess: boolean;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'backups' });
  const repository = createBackupsRepository(deps.db);
  const alerts = createBackupAlerts(deps.alerts);
  const deploymentInProgress = deps.deploymentInProgress ?? (async () => false);
  const runDeps: RunDeps = {
    engine: deps.engine,
    repository,
    logger,
    now,
    async openRepository(workspace) {
      const settings = await repository.settings(workspace.id);
      if (!settings) throw new Error(`no backup settings for workspace ${workspace.id}`);
      const password = await deps.vault.decrypt(settings.passwordEnc);
      return deps.engine.openRepository(locationFor(deps.store, workspace.id), password);
    },
  };
  const restoreDeps = {
    ...runDeps,
    docker: deps.docker,
    alerts,
    checkHealth: healthChecker({
      docker: deps.docker,
      healthModel: deps.healthModel,
      timeoutMs: deps.healthTimeoutMs,
    }),
  };

  /** Work started and not finished, so `idle` and `stop` can wait for it. */
  const running = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>, what: Record<string, unknown>) => {
    const tracked = work
      .catch((error) => logger.error({ err: error, ...what }, 'backup work failed'))
      .finally(() => running.delete(tracked));
    running.add(tracked);
  };

  /** A scheduled or manual backup, with retention before it is marked Verified and its alerts after. */
  async function backUp(workspace: WorkspaceRow, row: BackupRow) {
    const settings = await repository.settings(workspace.id);
    const policy = { daily: settings?.keepDaily ?? 7, weekly: settings?.keepWeekly ?? 4 };
    const done = await runBackup(runDeps, workspace, row, {
      beforeVerified: async (repo, backup) => {
        await applyRetention(runDeps, repo, workspace, backup, policy);
      },
    });
    if (done.status === 'verified') {
      await repository.updateSettings(workspace.id, { missedSince: null });
      await alerts.verified(workspace);
    } else {
      await alerts.failed(workspace, done.cause ?? 'The backup failed.');
    }
    return done;
  }

  const launcher = {
    backup: (workspace: WorkspaceRow, row: BackupRow) =>
      track(backUp(workspace, row), { workspace: workspace.id, backup: row.id }),
    restore: (workspace: WorkspaceRow, row: RestoreRow, backup: BackupRow) =>
      track(runRestore(restoreDeps, workspace, row, backup), { workspace: workspace.id, restore: row.id }),
  };
  const service = createBackupsService({
    repository,
    workspaces: deps.workspaces,
    vault: deps.vault,
    repositoryDescription: describeStore(deps.store),
    launcher,
    deploymentInProgress,
    now,
  });
  const scheduler = createBackupScheduler({
    repository,
    workspaces: deps.workspaces,
    engine: deps.engine,
    ensureSettings: service.ensureSettings,
    launch: launcher.backup,
    deploymentInProgress,
    alerts,
    openRepository: runDeps.openRepository,
    logger,
    now,
  });
  const task = scheduledWhileLeaseHeld('backup-scheduler', {
    kv: deps.kv,
    logger,
    task: () => scheduler.tick(new Date(now().getTime() - STALE_AFTER_MS)),
  });

  return {
    service,
    repository,
    /** One pass of the schedule (tests drive it with their clock; the background task runs it every 30 s). */
    runSchedule: () => scheduler.tick(new Date(now().getTime() - STALE_AFTER_MS)),
    /**
     * At start: lift whatever a backup interrupted by a crash left paused or stopped, and fail what the crash
     * left marked as running (in one process: all of it; with replicas: what stopped beating).
     */
    async recover() {
      // Neither step may keep the server from starting: each failure is logged, and the scheduler's pass
      // fails stale work again within a minute.
      const resumed = await deps.engine.resumeInterrupted().catch((error) => {
        logger.error({ err: error }, 'resuming containers a backup had paused or stopped failed');
        return [];
      });
      if (resumed.length > 0) {
        logger.warn({ containers: resumed }, 'resumed containers a backup had paused or stopped');
      }
      const before = deps.singleProcess
        ? new Date(now().getTime() + 1)
        : new Date(now().getTime() - STALE_AFTER_MS);
      await scheduler
        .failInterrupted(before)
        .catch((error) => logger.error({ err: error }, 'failing interrupted backups failed'));
    },
    /**
     * A deleted workspace's repository goes with it: its password went with its settings row, so nothing could
     * read it again. A local repository is removed; a remote one is left for its operator, and logged.
     */
    async removeWorkspace(workspace: WorkspaceRow) {
      const location = locationFor(deps.store, workspace.id);
      if (location.kind === 'local') await rm(location.path, { recursive: true, force: true });
      else
        logger.info(
          { workspace: workspace.id, repository: describeStore(deps.store) },
          "a deleted workspace's backup repository was left in place",
        );
    },
    /** Starts the background task (main.ts; tests call `runSchedule` themselves). */
    start: () => task.start(),
    /** Resolves once every backup and restore this process started has ended. */
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async stop() {
      await task.stop();
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type BackupsModule = ReturnType<typeof createBackupsModule>;
