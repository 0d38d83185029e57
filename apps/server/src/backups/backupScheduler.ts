import type { Logger } from 'pino';
import { composeProjectName } from '../infra/docker/conventions.js';
import {
  LIVE_STATUS,
  type WorkspaceRow,
  type WorkspacesRepository,
} from '../workspaces/workspacesRepository.js';
import type { BackupAlerts } from './backupAlerts.js';
import { isMissed, nextBackupAfter, scheduleOf } from './backupSchedule.js';
import type { BackupRow, BackupSettingsRow, BackupsRepository } from './backupsRepository.js';
import type { BackupEngine } from './engine/backupEngine.js';

/**
 * One pass of the backup schedule: every live workspace gets its settings (backups are on by default), due
 * backups start (a workspace with no data in named volumes has nothing to back up: its schedule just moves on),
 * and a workspace without a verified backup for 1.5 × its schedule's period gets `missed_since` and an alert.
 * (Backups and restores a crash interrupted are the durable runs' reaper's: jobs/durableRuns.ts.)
 */
export function createBackupScheduler(deps: {
  repository: BackupsRepository;
  workspaces: Pick<WorkspacesRepository, 'findById' | 'listWatched'>;
  engine: Pick<BackupEngine, 'describeProjectData'>;
  ensureSettings(workspace: WorkspaceRow): Promise<BackupSettingsRow>;
  launch(row: BackupRow): Promise<void>;
  /** A due backup waits for a running deployment (its containers are being replaced) and starts after it. */
  deploymentInProgress(workspace: WorkspaceRow): Promise<boolean>;
  alerts: BackupAlerts;
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
      await deps.launch(await repository.startBackup(workspace.id, workspace.name, 'schedule', now));
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
    async tick() {
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
