import type { AlertsService } from '../alerts/alertsService.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

export const BACKUP_FAILED = 'backup_failed';
export const BACKUP_MISSED = 'backup_missed';
export const BACKUP_RESTORED = 'backup_restored';
export const BACKUP_DAMAGED = 'backup_damaged';

/**
 * Backups' alerts, through the workspace's alert channels like a crash's: a failed backup and a missed
 * schedule stay active until a backup is verified; a restore is recorded as an event of the workspace.
 */
export function createBackupAlerts(alerts: Pick<AlertsService, 'raise' | 'recover' | 'record'>) {
  const noLines = { lastLines: [] };
  return {
    failed: (workspace: WorkspaceRow, cause: string) =>
      alerts.raise(
        workspace,
        {
          fingerprint: BACKUP_FAILED,
          title: `A backup of ${workspace.name} failed`,
          description: cause,
          alertType: BACKUP_FAILED,
          severity: 'error',
          service: null,
        },
        noLines,
      ),

    missed: (workspace: WorkspaceRow, lastVerified: Date | undefined) =>
      alerts.raise(
        workspace,
        {
          fingerprint: BACKUP_MISSED,
          title: `No backup of ${workspace.name} was verified on schedule`,
          description: lastVerified
            ? `The last verified backup is from ${lastVerified.toISOString()}: 1.5 times the schedule's period has passed without another.`
            : "No backup has been verified within 1.5 times the schedule's period.",
          alertType: BACKUP_MISSED,
          severity: 'error',
          service: null,
        },
        noLines,
      ),

    /** A Verified backup whose data can no longer be read back: open until that backup is gone or read whole. */
    damaged: (workspace: WorkspaceRow, backup: { id: string; startedAt: Date }, cause: string) =>
      alerts.raise(
        workspace,
        {
          fingerprint: `${BACKUP_DAMAGED}:${backup.id}`,
          title: `The backup of ${workspace.name} from ${backup.startedAt.toISOString()} is damaged`,
          description: `${cause} It can no longer be restored; the other backups are not affected by this finding.`,
          alertType: BACKUP_DAMAGED,
          severity: 'error',
          service: null,
        },
        noLines,
      ),

    /** A verified backup ends both. */
    async verified(workspace: WorkspaceRow) {
      await alerts.recover(workspace, BACKUP_FAILED);
      await alerts.recover(workspace, BACKUP_MISSED);
    },

    restored: (workspace: WorkspaceRow, restoreId: string, backupStartedAt: Date, services: string[]) =>
      alerts.record(workspace, {
        fingerprint: `${BACKUP_RESTORED}:${restoreId}`,
        title: `Restored backup from ${backupStartedAt.toISOString()}`,
        description: `Restored ${services.join(', ')} from the backup of ${backupStartedAt.toISOString()}; the services were started and checked.`,
        alertType: BACKUP_RESTORED,
        severity: 'info',
        service: services.length === 1 ? (services[0] ?? null) : null,
      }),

    restoreFailed: (workspace: WorkspaceRow, restoreId: string, cause: string) =>
      alerts.record(workspace, {
        fingerprint: `restore_failed:${restoreId}`,
        title: `A restore of ${workspace.name} failed`,
        description: cause,
        alertType: 'restore_failed',
        severity: 'error',
        service: null,
      }),
  };
}

export type BackupAlerts = ReturnType<typeof createBackupAlerts>;
