import { type Backup, RESTORE_STATUS_LABELS, type Restore } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { ArchiveRestore, CheckCircle2, Circle, Loader2 } from 'lucide-react';
import { useEffect } from 'react';
import { backupsKey, useRestore } from '../../api/backups';
import {
  isRestoreRunning,
  RESTORE_STEPS,
  type RestoreStepState,
  restorePollInterval,
  restoreStatus,
  restoreStepStates,
  restoreSummary,
} from '../../components/backups/backupView';
import { StatusBadge } from '../../components/StatusBadge';
import { Alert, Card, CardBody, CardHeader } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';

/**
 * The workspace's latest restore, followed live (read every second while it runs): its steps, the services it
 * puts back, and on failure the cause and whether the safety backup was put back.
 */
export function RestoreProgressCard({
  workspace,
  listed,
  backups,
}: {
  workspace: string;
  /** The latest restore as the list last answered it. */
  listed: Restore;
  backups: readonly Backup[];
}) {
  const queryClient = useQueryClient();
  const followed = useRestore(workspace, listed, restorePollInterval);
  const restore = followed.data;
  const running = isRestoreRunning(restore);
  const listedRunning = isRestoreRunning(listed);

  // Once it has finished, the list is read again: the safety backup's row and the latest restore change with it.
  useEffect(() => {
    if (listedRunning && !running) void queryClient.invalidateQueries({ queryKey: backupsKey(workspace) });
  }, [listedRunning, running, queryClient, workspace]);

  return (
    <Card data-testid="restore-progress" data-status={restore.status}>
      <CardHeader
        title="Restore"
        icon={ArchiveRestore}
        action={<StatusBadge status={restoreStatus(restore)} />}
      />
      <CardBody className="space-y-4 text-sm">
        <div aria-live="polite">
          <p className="font-medium text-zinc-900" data-testid="restore-summary">
            {restoreSummary(restore, backups)}
          </p>
          <p className="mt-0.5 text-xs text-zinc-600">
            Services: {restore.services.join(', ') || '—'} · started {formatDateTime(restore.started_at)}
            {restore.finished_at && <> · finished {formatDateTime(restore.finished_at)}</>}
          </p>
        </div>
        <RestoreSteps restore={restore} />
        {restore.cause && (
          <Alert tone={restore.status === 'rolled_back' ? 'warning' : 'error'}>{restore.cause}</Alert>
        )}
        {followed.isError && <p className="text-xs text-zinc-500">{followed.error.message}; trying again.</p>}
      </CardBody>
    </Card>
  );
}

const STEP_ICONS = {
  done: <CheckCircle2 className="h-4 w-4 text-emerald-600" aria-hidden="true" />,
  current: <Loader2 className="h-4 w-4 animate-spin text-sky-600" aria-hidden="true" />,
  waiting: <Circle className="h-4 w-4 text-zinc-300" aria-hidden="true" />,
} as const satisfies Record<RestoreStepState, unknown>;

const STEP_WORDS = { done: 'done', current: 'in progress', waiting: 'not yet' } as const;

function RestoreSteps({ restore }: { restore: Restore }) {
  const states = restoreStepStates(restore.status);
  if (!states) return null;
  return (
    <ol className="grid gap-2 sm:grid-cols-5" aria-label="Restore steps">
      {RESTORE_STEPS.map((step, index) => {
        const state = states[index] ?? 'waiting';
        return (
          <li key={step} className="flex items-center gap-2 text-xs text-zinc-700" data-state={state}>
            {STEP_ICONS[state]}
            <span>
              {RESTORE_STATUS_LABELS[step]}
              <span className="sr-only"> ({STEP_WORDS[state]})</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
