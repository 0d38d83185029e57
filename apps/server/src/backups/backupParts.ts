import type { StoredBackupPart } from '../infra/db/backupTables.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BackupRow } from './backupsRepository.js';
import type { PartResult } from './engine/backupEngine.js';

/** A backup's parts: as its row stores them and as the engine reads them, and the tags its snapshots carry. */

export const storedPart = (part: PartResult, checked: string | null = null): StoredBackupPart => ({
  service: part.service,
  method: part.method,
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint,
  checked,
  ...(part.sha256 ? { sha256: part.sha256 } : {}),
});

export const partResult = (part: StoredBackupPart): PartResult => ({
  service: part.service,
  method: part.method as PartResult['method'],
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint as PartResult['fingerprint'],
  ...(part.sha256 ? { sha256: part.sha256 } : {}),
});

/** Every snapshot of a backup carries its id: what a crash left half-written is found by it. */
export const backupTag = (backup: Pick<BackupRow, 'id'>) => `slipway-backup-${backup.id}`;

export const tagsOf = (workspace: WorkspaceRow, backup: BackupRow) => [
  `slipway-workspace-${workspace.id}`,
  backupTag(backup),
  `slipway-trigger-${backup.trigger}`,
];
