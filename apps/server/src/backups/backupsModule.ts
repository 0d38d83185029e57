import { rm } from 'node:fs/promises';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { AlertsService } from '../alerts/alertsService.js';
import type { BackupStore } from '../config/backupConfig.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { repositoryOptions } from '../infra/restic/resticLocation.js';
import type { Vault } from '../infra/vault/vault.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBackupAlerts } from './backupAlerts.js';
import { createBackupRecheck } from './backupRecheck.js';
import { backupKind, type RunDeps } from './backupRun.js';
import { createBackupScheduler } from './backupScheduler.js';
import type { BackupRow, BackupsRepository } from './backupsRepository.js';
import { createBackupsService } from './backupsService.js';
import type { BackupEngine } from './engine/backupEngine.js';
import { type HealthModel, healthChecker } from './restoreHealth.js';
import type { RestoreDeps } from './restoreRecord.js';
import { restoreKind } from './restoreRun.js';
import { applyRetention } from './retentionPass.js';
import { describeStore, locationFor } from './storeLocations.js';

/** How many safety backups a workspace keeps (each in a repository of its own); older ones go with theirs. */
const KEEP_SAFETY_BACKUPS = 3;

/**
 * Backups, assembled: the service the routes call; backups and restores as durable runs (jobs/durableRuns.ts:
 * queued, one per workspace at a time by the settings row's lock, taken over after a crash); and the background
 * tasks, each in the replica holding its lease: scheduled backups and missed-schedule alerts, and the re-check
 * of old backups.
 */
export function createBackupsModule(deps: {
  db: Db;
  /** The one owner of the backups' tables, built by the platform. */
  repository: BackupsRepository;
  vault: Vault;
  kv: KeyValueStore;
  logger: Logger;
  store: BackupStore;
  engine: BackupEngine;
  docker: Docker;
  runs: DurableRuns;
  alerts: Pick<AlertsService, 'raise' | 'recover' | 'record'>;
  workspaces: Pick<WorkspacesRepository, 'findOwned' | 'findById' | 'listWatched'>;
  /** The serving deployment's service roles and host ports, for the health check after a restore. */
  healthModel: (workspace: WorkspaceRow) => Promise<HealthModel | undefined>;
  healthTimeoutMs: number;
  /** Whether a deployment of the workspace runs (deployments/ owns that; the platform passes it in). */
  deploymentInProgress?: (workspace: WorkspaceRow) => Promise<boolean>;
  /** Tells the health monitor a backup or a restore stops these services on purpose (no crash alert for them). */
  announceStops?: RunDeps['announceStops'];
  /** One server process on this data: at start, every run marked at work was left by a crash. */
  singleProcess: boolean;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger.child({ component: 'backups' });
  const { repository } = deps;
  const alerts = createBackupAlerts(deps.alerts);
  const deploymentInProgress = deps.deploymentInProgress ?? (async () => false);
  const locationOf = (workspace: WorkspaceRow, backup?: Pick<BackupRow, 'repository'>) =>
    locationFor(deps.store, workspace.id, backup?.repository ?? undefined);

  async function passwordOf(workspace: WorkspaceRow) {
    const settings = await repository.settings(workspace.id);
    if (!settings) throw new Error(`no backup settings for workspace ${workspace.id}`);
    return deps.vault.decrypt(settings.passwordEnc);
  }

  const runDeps: RunDeps = {
    engine: deps.engine,
    repository,
    alerts,
    workspaces: deps.workspaces,
    logger,
    now,
    openRepository: async (workspace, backup) =>
      deps.engine.openRepository(locationOf(workspace, backup), await passwordOf(workspace)),
    announceStops: deps.announceStops ?? (async () => ({ end: async () => {} })),
    async beforeVerified(repo, workspace, backup) {
      const settings = await repository.settings(workspace.id);
      const policy = { daily: settings?.keepDaily ?? 7, weekly: settings?.keepWeekly ?? 4 };
      await applyRetention(runDeps, repo, workspace, backup, policy);
    },
  };

  /** A workspace's safety backups beyond the newest few go, each with its own repository. */
  async function pruneSafetyBackups(workspace: WorkspaceRow) {
    const old = (await repository.safetyBackups(workspace.id)).slice(KEEP_SAFETY_BACKUPS);
    for (const backup of old) {
      const location = locationOf(workspace, backup);
      if (location.kind === 'local') await rm(location.path, { recursive: true, force: true });
      else {
        const repo = deps.engine.openRepository(location, await passwordOf(workspace));
        const snapshots = await repo.listSnapshots().catch(() => []);
        await repo.removeSnapshots(snapshots.map((snapshot) => snapshot.id));
      }
      await repository.deleteBackups([backup.id]);
    }
  }

  const restoreDeps: RestoreDeps = {
    ...runDeps,
    docker: deps.docker,
    checkHealth: healthChecker({
      docker: deps.docker,
      healthModel: deps.healthModel,
      timeoutMs: deps.healthTimeoutMs,
    }),
    async openSafetyRepository(workspace, restoreId) {
      const repo = await runDeps.openRepository(workspace, { repository: `safety/${restoreId}` });
      await repo.ensureInitialised();
      return repo;
    },
    afterRestore: pruneSafetyBackups,
  };
  deps.runs.register(backupKind(runDeps));
  deps.runs.register(restoreKind(restoreDeps));

  const launcher = {
    backup: (row: BackupRow) => deps.runs.enqueue('backup.run', row.id),
    restore: (row: { id: string }) => deps.runs.enqueue('restore.run', row.id),
  };
  const service = createBackupsService({
    repository,
    workspaces: deps.workspaces,
    vault: deps.vault,
    repositoryDescription: describeStore(deps.store),
    repositoryOptions: (workspace) => ({
      repository: repositoryOptions(locationOf(workspace)),
      safety: repositoryOptions(locationOf(workspace, { repository: 'safety/{restore id}' })),
    }),
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
    logger,
    now,
  });
  const recheck = createBackupRecheck({
    repository,
    engine: deps.engine,
    alerts,
    workspaces: deps.workspaces,
    openRepository: runDeps.openRepository,
    logger,
    now,
  });
  const scheduleTask = scheduledWhileLeaseHeld('backup-scheduler', {
    kv: deps.kv,
    logger,
    task: () => scheduler.tick(),
  });
  const recheckTask = scheduledWhileLeaseHeld('backup-recheck', {
    kv: deps.kv,
    logger,
    task: () => recheck.pass(),
  });

  return {
    service,
    repository,
    /** One pass of the schedule (tests drive it with their clock; the background task runs it every 30 s). */
    runSchedule: () => scheduler.tick(),
    /** One pass of the re-check of old backups (the background task runs it every 10 minutes). */
    recheck: () => recheck.pass(),
    /**
     * At start, before the workers: lift whatever a backup interrupted by a crash left paused or stopped, stop
     * the restic processes it left running, remove its throwaways and the volumes of restores that ended; then
     * take over the backups and restores a crash left at work (alone on the data: all of them; with replicas:
     * those whose heartbeat stopped) and wait for them to end.
     */
    async recover() {
      // No step may keep the server from starting: each failure is logged, and the reaper tries again.
      const resumed = await deps.engine.resumeInterrupted().catch((error) => {
        logger.error({ err: error }, 'resuming containers a backup had paused or stopped failed');
        return [];
      });
      if (resumed.length > 0) {
        logger.warn({ containers: resumed }, 'resumed containers a backup had paused or stopped');
      }
      await deps.runs
        .reap({ everyTakenRun: deps.singleProcess, jobs: ['backup.run', 'restore.run'], wait: true })
        .catch((error) => logger.error({ err: error }, 'taking over interrupted backups failed'));
      const withVolumes = await deps.engine.restoresWithVolumes().catch(() => [] as string[]);
      const keeping = await repository.restoresKeepingVolumes(withVolumes);
      for (const restoreId of withVolumes.filter((id) => !keeping.has(id))) {
        await deps.engine
          .discardRestore(restoreId)
          .catch((error) =>
            logger.warn({ err: error, restoreId }, "removing an ended restore's volumes failed"),
          );
      }
    },
    /**
     * A deleted workspace's repositories go with it: its password went with its settings row, so nothing could
     * read them again. Local ones are removed; remote ones are left for their operator, and logged.
     */
    async removeWorkspace(workspace: WorkspaceRow) {
      const location = locationOf(workspace);
      if (location.kind === 'local') {
        await rm(location.path, { recursive: true, force: true });
        await rm(`${location.path}.safety`, { recursive: true, force: true });
      } else
        logger.info(
          { workspace: workspace.id, repository: describeStore(deps.store) },
          "a deleted workspace's backup repository was left in place",
        );
    },
    /** Starts the background tasks (main.ts; tests call `runSchedule` themselves). */
    start() {
      scheduleTask.start();
      recheckTask.start();
    },
    /** Resolves once every backup and restore this process started or enqueued has ended. */
    idle: () => deps.runs.idle(),
    async stop() {
      await scheduleTask.stop();
      await recheckTask.stop();
    },
  };
}

export type BackupsModule = ReturnType<typeof createBackupsModule>;
