import type { BackupOverview } from '@slipway/contract';
import { DatabaseBackup } from 'lucide-react';
import type { ReactNode } from 'react';
import { useBackups } from '../../api/backups';
import { AsyncSection } from '../../components/AsyncSection';
import {
  backupStateText,
  backupStatus,
  backupsPollInterval,
  latestBackup,
  missedText,
  restoreStatus,
  restoreSummary,
} from '../../components/backups/backupView';
import { type Status, StatusBadge } from '../../components/StatusBadge';
import { CardBody, cn } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { ManagedCard } from './ManagedCard';

/** The workspace's latest backup (Verified at, Failed with why, or running), an overdue warning, and the latest restore. */
export function BackupsCard({ workspace }: { workspace: string }) {
  const overview = useBackups(workspace, { refetchInterval: backupsPollInterval });
  return (
    <ManagedCard title="Backups" icon={DatabaseBackup} workspace={workspace} tab="backups">
      <CardBody className="space-y-3 text-sm" data-testid="dashboard-backups">
        <AsyncSection
          query={overview}
          loading="inline"
          failed={<p className="text-zinc-500">The backups could not be read.</p>}
        >
          {(data) => <BackupsSummary overview={data} />}
        </AsyncSection>
      </CardBody>
    </ManagedCard>
  );
}

function BackupsSummary({ overview }: { overview: BackupOverview }) {
  const latest = latestBackup(overview.backups);
  const missed = missedText(overview.settings, overview.backups);
  const restore = overview.latest_restore;
  return (
    <>
      {missed && (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900">
          {missed}
        </p>
      )}
      {latest ? (
        <StateLine
          testId="dashboard-latest-backup"
          state={latest.status}
          text={backupStateText(latest)}
          status={backupStatus(latest)}
          cause={latest.cause}
        />
      ) : (
        <p className="text-zinc-500">
          No backup yet.
          {!overview.settings.enabled && ' Scheduled backups are off.'}
        </p>
      )}
      {restore && (
        <StateLine
          testId="dashboard-latest-restore"
          state={restore.status}
          text={restoreSummary(restore, overview.backups)}
          status={restoreStatus(restore)}
          cause={restore.cause}
          className="border-t border-zinc-100 pt-3"
        >
          <p className="text-xs text-zinc-500">
            {restore.services.join(', ')} · {formatDateTime(restore.finished_at ?? restore.started_at)}
          </p>
        </StateLine>
      )}
    </>
  );
}

/** Where something stands in words with its badge at the line's end; under it `children`, then why it failed. */
function StateLine({
  testId,
  state,
  text,
  status,
  cause,
  className,
  children,
}: {
  testId: string;
  state: string;
  text: string;
  status: Status;
  cause: string | null;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div className={cn('space-y-1', className)} data-testid={testId} data-status={state}>
      <div className="flex items-start justify-between gap-3">
        <p className="text-zinc-800">{text}</p>
        <StatusBadge status={status} />
      </div>
      {children}
      {cause && <p className="text-xs text-red-700">{cause}</p>}
    </div>
  );
}
