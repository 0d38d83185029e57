import type { ResticRepository } from '../infra/restic/resticRepository.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { RunDeps } from './backupRun.js';
import type { BackupRow } from './backupsRepository.js';
import { retentionOf } from './retention.js';

/**
 * Keep every verified backup of the last 24 hours, the last `daily` daily and `weekly` weekly ones, and always the newest verified one (`just`,
 * the backup this pass follows, which is not marked verified yet so no restore can start from a backup about to
 * go): the forgotten backups' snapshots are removed and their rows deleted, with failed backups older than every
 * kept one; restic's own `forget` then runs over
 * the workspace's snapshots with every kept snapshot id pinned, for anything a crash left behind.
 */
export async function applyRetention(
  deps: RunDeps,
  repo: ResticRepository,
  workspace: WorkspaceRow,
  just: BackupRow,
  policy: { daily: number; weekly: number },
): Promise<{ forgotten: string[] }> {
  const verified = (await deps.repository.verifiedBackups(workspace.id)).filter((row) => row.id !== just.id);
  const candidates = [just, ...verified];
  const { keep, forget } = retentionOf(candidates, policy, deps.now());
  const byId = new Map(candidates.map((row) => [row.id, row]));
  const snapshotsOf = (ids: string[]) =>
    ids.flatMap((id) => byId.get(id)?.parts.map((part) => part.snapshotId) ?? []);
  if (forget.length > 0) await repo.removeSnapshots(snapshotsOf(forget));
  await deps.repository.deleteBackups(forget);
  // Failed backups older than every backup kept are history nobody can act on any more.
  const oldestKept = candidates.filter((row) => keep.includes(row.id)).at(-1);
  if (oldestKept) await deps.repository.deleteFailedBefore(workspace.id, oldestKept.startedAt);
  await repo.forget([`slipway-workspace-${workspace.id}`], { ...policy, keep: snapshotsOf(keep) });
  return { forgotten: forget };
}
