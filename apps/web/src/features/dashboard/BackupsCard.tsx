import { RESTORE_STATUS_LABELS } from '@slipway/contract';
import { DatabaseBackup } from 'lucide-react';
import { Link } from 'react-router';
import { useBackups } from '../../api/backups';
import { BackupStatusBadge } from '../../components/backups/BackupStatusBadge';
import {
  backupStateText,
  backupsPollInterval,
  latestBackup,
  missedText,
  RESTORE_STATUS_TONES,
  restoreSummary,
} from '../../components/backups/backupView';
import { Badge, Card, CardBody, CardHeader, Spinner } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';

/** The workspace's latest backup (Verified at, Failed with why, or running), an overdue warning, and the latest restore. */
export function BackupsCard({ workspace }: { workspace: string }) {
  const overview = useBackups(workspace, { refetchInterval: backupsPollInterval });
  const latest = overview.data ? latestBackup(overview.data.backups) : undefined;
  const missed = overview.data ? missedText(overview.data.settings, overview.data.backups) : null;
  const restore = overview.data?.latest_restore;
  return (
    <Card>
      <CardHeader
        title="Backups"
        icon={DatabaseBackup}
        action={
          <Link
            to={`/workspace-settings?workspace=${encodeURIComponent(workspace)}&tab=backups`}
            className="text-sm font-medium whitespace-nowrap text-accent-700 hover:underline"
          >
            Manage
          </Link>
        }
      />
      <CardBody className="space-y-3 text-sm" data-testid="dashboard-backups">
        {overview.isPending ? (
          <Spinner size="sm" className="text-accent-600" />
        ) : overview.isError ? (
          <p className="text-zinc-500">The backups could not be read.</p>
        ) : (
          <>
            {missed && (
              <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
                {missed}
              </p>
            )}
            {latest ? (
              <div className="space-y-1" data-testid="dashboard-latest-backup" data-status={latest.status}>
                <div className="flex items-start justify-between gap-3">
                  <p className="text-zinc-800">{backupStateText(latest)}</p>
                  <BackupStatusBadge backup={latest} showCause={false} />
                </div>
                {latest.cause && <p className="text-xs text-red-700">{latest.cause}</p>}
              </div>
            ) : (
              <p className="text-zinc-500">
                No backup yet.
                {!overview.data.settings.enabled && ' Scheduled backups are off.'}
              </p>
            )}
            {restore && (
              <div
                className="space-y-1 border-t border-zinc-100 pt-3"
                data-testid="dashboard-latest-restore"
                data-status={restore.status}
              >
                <div className="flex items-start justify-between gap-3">
                  <p className="text-zinc-800">{restoreSummary(restore, overview.data.backups)}</p>
                  <Badge tone={RESTORE_STATUS_TONES[restore.status]} dot>
                    {RESTORE_STATUS_LABELS[restore.status]}
                  </Badge>
                </div>
                <p className="text-xs text-zinc-500">
                  {restore.services.join(', ')} · {formatDateTime(restore.finished_at ?? restore.started_at)}
                </p>
                {restore.cause && <p className="text-xs text-red-700">{restore.cause}</p>}
              </div>
            )}
          </>
        )}
      </CardBody>
    </Card>
  );
}
