import type { Logger } from 'pino';
import type { ResticRepository } from '../infra/restic/resticRepository.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BackupAlerts } from './backupAlerts.js';
import { partResult } from './backupParts.js';
import type { BackupRow, BackupsRepository } from './backupsRepository.js';
import type { BackupEngine } from './engine/backupEngine.js';

/** How long a verified backup goes before its data is read back again. */
export const RECHECK_EVERY_MS = 7 * 24 * 60 * 60 * 1000;
/** How long one pass reads at most (it always reads one backup whole). */
const PASS_BUDGET_MS = 60_000;

/**
 * The re-check of old backups: a Verified backup was whole when it was verified, and its repository can lose it
 * since (a disk, a pack deleted by hand, an object store's bucket policy). Each pass reads back in full the
 * backups read longest ago (restic authenticates every block; the bytes must be those stored), within a budget,
 * so that every backup is read again within {@link RECHECK_EVERY_MS}. A backup that no longer reads back becomes
 * Damaged, with the reason, and raises an alert; the other backups of its workspace are read at once, since one
 * lost pack can hold the data of several.
 */
export function createBackupRecheck(deps: {
  repository: BackupsRepository;
  engine: Pick<BackupEngine, 'readBack'>;
  alerts: Pick<BackupAlerts, 'damaged'>;
  workspaces: { findById(id: string): Promise<WorkspaceRow | undefined> };
  openRepository(workspace: WorkspaceRow, backup?: Pick<BackupRow, 'repository'>): Promise<ResticRepository>;
  logger: Logger;
  now: () => Date;
}) {
  /** Reads one backup back whole: answers whether it is damaged (and marks it so). */
  async function readBack(workspace: WorkspaceRow, backup: BackupRow): Promise<boolean> {
    const repo = await deps.openRepository(workspace, backup);
    for (const part of backup.parts) {
      const result = await deps.engine.readBack(repo, partResult(part));
      if (!result.ok) {
        const cause = `Reading ${part.service}'s part back failed: ${result.reason}`;
        await deps.repository.updateBackup(backup.id, { status: 'damaged', cause, recheckedAt: deps.now() });
        await deps.alerts.damaged(workspace, backup, cause);
        deps.logger.error(
          { workspace: workspace.id, backup: backup.id, cause },
          'a verified backup is damaged',
        );
        return true;
      }
    }
    await deps.repository.updateBackup(backup.id, { recheckedAt: deps.now() });
    return false;
  }

  return {
    /** One pass; answers the ids of the backups found damaged. */
    async pass(): Promise<string[]> {
      const damaged: string[] = [];
      const started = Date.now();
      do {
        const backup = await deps.repository.nextToRecheck(new Date(deps.now().getTime() - RECHECK_EVERY_MS));
        if (!backup) break;
        const workspace = await deps.workspaces.findById(backup.workspaceId);
        if (!workspace) {
          await deps.repository.updateBackup(backup.id, { recheckedAt: deps.now() });
          continue;
        }
        if (!(await readBack(workspace, backup))) continue;
        damaged.push(backup.id);
        for (const other of await deps.repository.verifiedBackups(workspace.id)) {
          if (await readBack(workspace, other)) damaged.push(other.id);
        }
      } while (Date.now() - started < PASS_BUDGET_MS);
      return damaged;
    },
  };
}
