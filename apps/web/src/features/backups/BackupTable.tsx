import { BACKUP_METHOD_LABELS, type Backup, type BackupOverview } from '@slipway/contract';
import { ArchiveRestore } from 'lucide-react';
import { useState } from 'react';
import { useStartRestore } from '../../api/backups';
import {
  backupStatus,
  backupTime,
  canRestore,
  partName,
  TRIGGER_TEXT,
} from '../../components/backups/backupView';
import { actionsColumn, DataTable } from '../../components/DataTable';
import { RowButton } from '../../components/RowButton';
import { StatusBadge } from '../../components/StatusBadge';
import { Alert } from '../../components/ui';
import { formatBytes } from '../../lib/units';
import { RestoreDialog } from './RestoreDialog';

/** One row per backup, newest first: when, how big, each service's part and what its check compared, its status. */
export function BackupTable({ workspace, overview }: { workspace: string; overview: BackupOverview }) {
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const start = useStartRestore(workspace);

  const restoreButton = (backup: Backup) =>
    backup.status === 'verified' && (
      <RowButton
        label="Restore"
        of={`the backup from ${backupTime(backup)}`}
        icon={ArchiveRestore}
        busy={start.isPending && start.variables?.backupId === backup.id}
        disabled={!canRestore(backup, overview)}
        onClick={() => setRestoring(backup)}
      />
    );

  return (
    <div className="space-y-3">
      {start.error && <Alert tone="error">{start.error.message}</Alert>}
      <DataTable
        label="Backups"
        look="tall"
        rows={overview.backups}
        rowKey={(backup) => backup.id}
        rowAttributes={(backup) => ({
          'data-testid': 'backup',
          'data-backup-id': backup.id,
          'data-status': backup.status,
        })}
        columns={[
          {
            header: 'Backup',
            cell: (backup) => <BackupWhen backup={backup} />,
            className: 'min-w-40',
          },
          {
            header: 'Services',
            cell: (backup) => <BackupParts backup={backup} />,
            stacksOnPhone: true,
            className: 'min-w-56',
          },
          {
            header: 'Status',
            cell: (backup) => (
              <StatusBadge status={backupStatus(backup)} cause={backup.cause} causeTone="danger" />
            ),
            stacksOnPhone: true,
            // On a phone the verdict comes first, under the backup's time.
            phoneOrder: -1,
            className: 'min-w-36',
          },
          actionsColumn(restoreButton, { stacksOnPhone: true }),
        ]}
      />
      <RestoreDialog
        key={restoring?.id}
        backup={restoring}
        onClose={() => setRestoring(null)}
        onRestore={(backup, service) => {
          setRestoring(null);
          start.mutate({ backupId: backup.id, ...(service === undefined ? {} : { service }) });
        }}
      />
    </div>
  );
}

/** Its time, why it was taken, its size and what it added to the repository after deduplication. */
function BackupWhen({ backup }: { backup: Backup }) {
  return (
    <div className="space-y-0.5">
      <p className="font-medium text-zinc-900">
        <time dateTime={backup.started_at}>{backupTime(backup)}</time>
      </p>
      <p className="text-xs text-zinc-600">{TRIGGER_TEXT[backup.trigger]}</p>
      {backup.parts.length > 0 && (
        <p className="text-xs text-zinc-600" data-testid="backup-size">
          {formatBytes(backup.size_bytes)}
          {backup.status !== 'failed' && (
            <span className="text-zinc-500"> · {formatBytes(backup.added_bytes)} new in the repository</span>
          )}
        </p>
      )}
    </div>
  );
}

/** Each service's part: its name and volumes, how it was taken, and what the verification compared. */
function BackupParts({ backup }: { backup: Backup }) {
  if (backup.parts.length === 0) {
    return (
      <p className="text-xs text-zinc-500">
        {backup.status === 'failed' ? 'Nothing was stored.' : 'Dumping and copying…'}
      </p>
    );
  }
  return (
    <ul className="space-y-2" aria-label="Services in this backup">
      {backup.parts.map((part) => (
        <li key={part.service} className="text-xs" data-testid="backup-part" data-service={part.service}>
          <p className="text-sm font-medium text-zinc-900">{partName(part)}</p>
          <p className="text-zinc-600">
            {BACKUP_METHOD_LABELS[part.method]} · {formatBytes(part.size_bytes)}
          </p>
          {part.checked && <p className="text-zinc-500">Checked: {part.checked}</p>}
        </li>
      ))}
    </ul>
  );
}
