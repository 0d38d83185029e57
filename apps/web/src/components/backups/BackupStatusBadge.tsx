import { BACKUP_STATUS_LABELS, type Backup } from '@slipway/contract';
import { Loader2 } from 'lucide-react';
import { Badge } from '../ui';
import { BACKUP_STATUS_TONES, isBackupMoving } from './backupView';

/** Verified / Failed / Backing up / Verifying (turning while it moves by itself), and under it why it failed. */
export function BackupStatusBadge({ backup, showCause = true }: { backup: Backup; showCause?: boolean }) {
  const moving = isBackupMoving(backup);
  return (
    <div className="max-w-xs space-y-1">
      <Badge
        tone={BACKUP_STATUS_TONES[backup.status]}
        dot={!moving}
        icon={moving ? <Loader2 className="h-3 w-3 animate-spin" aria-hidden="true" /> : undefined}
      >
        {BACKUP_STATUS_LABELS[backup.status]}
      </Badge>
      {showCause && backup.cause && <p className="text-xs text-red-700">{backup.cause}</p>}
    </div>
  );
}
