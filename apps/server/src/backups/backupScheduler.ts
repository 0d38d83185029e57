import type { Logger } from 'pino';
import type { BackupEngine, ResticRepository } from '../infra/backup/backupEngine.js';
import { composeProjectName } from '../infra/docker/conventions.js';
import {
  LIVE_STATUS,
  type WorkspaceRow,
  type WorkspacesRepository,
} from '../workspaces/workspacesRepository.js';
import type { BackupAlerts } from './backupAlerts.js';
import { isMissed, nextBackupAfter, scheduleOf } from './backupSchedule.js';
import type { BackupRow, BackupSettingsRow, BackupsRepository } from './backupsRepository.js';

export const RESTARTED_DURING_BACKUP = 'Slipway restarted during this backup.';
export const RESTARTED_DURING_RESTORE =
  'Slipway restarted during this restore: check the services; its safety backup holds the data as it was before.';

/**
 * One pass of the backup schedule: every live workspace gets its settings (backups are on by default), due
 * backups start (a workspace with no data in named volumes has nothing to back up: its schedule just moves on),
 * a workspace without a verified backup for 1.5 × its schedule's period gets `missed_since` and an alert, and
 * backups or restores whose heartbeat stopped are failed.
 */
export function createBackupScheduler(deps: {
  repository: BackupsRepository;
  workspaces: Pick<WorkspacesRepository, 'findById' | 'listWatched'>;
  engine: Pick<BackupEngine, 'describeProjectData'>;
  ensureSettings(workspace: WorkspaceRow): Promise<BackupSettingsRow>;
  launch(workspace: WorkspaceRow, row: BackupRow): void;
  /** A due backup waits for a running deployment (its containers are being replaced) and starts after it. */
  deploymentInProgress(workspace: WorkspaceRow): Promise<boolean>;
  alerts: BackupAlerts;
  openRepository(workspace: WorkspaceRow): Promise<ResticRepository>;
  logger: Logger;
  now: () => Date;
}) {
  const { repository, logger } = deps;

  async function liveWorkspace(workspaceId: string) {
    const workspace = await deps.workspaces.findById(workspaceId);
    return workspace?.status === LIVE_STATUS ? workspace : undefined;
  }

  async function startDue(settings: BackupSettingsRow) {
    const now = deps.now();
    const workspace = await liveWorkspace(settings.workspaceId);
    if (workspace && (await deps.deploymentInProgress(workspace))) return;
    await repository.updateSettings(settings.workspaceId, {
      nextBackupAt: nextBackupAfter(scheduleOf(settings), now),
    });
    if (!workspace) return;
    const data = await deps.engine.describeProjectData(composeProjectName(workspace.id));
    if (data.length === 0) {
      await repository.updateSettings(workspace.id, { scheduledSince: now });
      return;
    }
    try {
      deps.launch(workspace, await repository.startBackup(workspace.id, workspace.name, 'schedule', now));
    } catch (error) {
      logger.info(
        { err: error, workspace: workspace.id },
        'scheduled backup skipped: other backup work runs',
      );
    }
  }

  async function checkMissed(
    settings: BackupSettingsRow,
    workspace: WorkspaceRow | undefined,
    lastVerified: Date | undefined,
  ) {
    if (settings.missedSince || !workspace) return;
    const since =
      lastVerified && lastVerified > settings.scheduledSince ? lastVerified : settings.scheduledSince;
    const now = deps.now();
    if (!isMissed(scheduleOf(settings), since, now)) return;
    await repository.updateSettings(workspace.id, { missedSince: now });
    await deps.alerts.missed(workspace, lastVerified);
  }

  /** Fails work marked running whose heartbeat is older than `before`; a failed backup's parts leave the repository. */
  async function failInterrupted(before: Date) {
    const stale = await repository.stale(before);
    for (const row of stale.backups) {
      const failed = await repository.failActiveBackup(row.id, RESTARTED_DURING_BACKUP, deps.now());
      const workspace = failed && (await deps.workspaces.findById(row.workspaceId));
      if (!failed || !workspace) continue;
      logger.warn({ workspace: workspace.id, backup: row.id }, 'a backup was interrupted');
      if (row.parts.length > 0) {
        await deps
          .openRepository(workspace)
          .then((repo) => repo.removeSnapshots(row.parts.map((part) => part.snapshotId)))
          .catch((error) =>
            logger.warn({ err: error, backup: row.id }, "removing an interrupted backup's snapshots failed"),
          );
      }
      if (row.trigger !== 'safety') await deps.alerts.failed(workspace, RESTARTED_DURING_BACKUP);
    }
    for (const row of stale.restores) {
      const failed = await repository.failActiveRestore(row.id, RESTARTED_DURING_RESTORE, deps.now());
      const workspace = failed && (await deps.workspaces.findById(row.workspaceId));
      if (workspace) await deps.alerts.restoreFailed(workspace, row.id, RESTARTED_DURING_RESTORE);
    }
  }

  /** Each workspace's part is its own: one failing is logged and the others go on. */
  const each = async <T extends { workspaceId: string }>(
    rows: T[],
    what: string,
    run: (row: T) => Promise<unknown>,
  ) => {
    for (const row of rows) {
      await run(row).catch((error) => logger.warn({ err: error, workspace: row.workspaceId }, what));
    }
  };

  return {
    failInterrupted,
    async tick(staleBefore: Date) {
      await failInterrupted(staleBefore);
      // In batches: a pass over 200 quiet workspaces is a few queries, not a few per workspace.
      const watched = await deps.workspaces.listWatched();
      const withSettings = await repository.workspacesWithSettings();
      for (const workspace of watched.filter((row) => !withSettings.has(row.id))) {
        await deps
          .ensureSettings(workspace)
          .catch((error) =>
            logger.warn({ err: error, workspace: workspace.id }, 'making backup settings failed'),
          );
      }
      await each(await repository.dueSettings(deps.now()), 'starting a scheduled backup failed', startDue);
      const live = new Map(watched.filter((row) => row.status === LIVE_STATUS).map((row) => [row.id, row]));
      const verifiedAt = await repository.latestVerifiedAt();
      await each(await repository.enabledSettings(), 'checking for a missed backup failed', (settings) =>
        checkMissed(settings, live.get(settings.workspaceId), verifiedAt.get(settings.workspaceId)),
      );
    },
  };
}
