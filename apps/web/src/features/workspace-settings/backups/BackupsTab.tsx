import { DatabaseBackup, Play } from 'lucide-react';
import { useBackUpNow, useBackups } from '../../../api/backups';
import { backupsPollInterval, canBackUpNow, missedText } from '../../../components/backups/backupView';
import { EmptyState } from '../../../components/EmptyState';
import { Alert, Button, Spinner } from '../../../components/ui';
import { SettingsLoadError } from '../SettingsLoadError';
import { BackupScheduleCard } from './BackupScheduleCard';
import { BackupTable } from './BackupTable';
import { RestoreProgressCard } from './RestoreProgressCard';

/**
 * Workspace Settings → Backups: a banner when none was verified in time, the latest restore followed live, the
 * schedule, Back Up Now and every backup with Restore. The list is read every 2 s while a backup or a restore runs.
 */
export function BackupsTab({ workspace }: { workspace: string }) {
  const overview = useBackups(workspace, { refetchInterval: backupsPollInterval });
  const backUpNow = useBackUpNow(workspace);

  if (overview.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="text-accent-600" />
      </div>
    );
  }
  if (overview.isError) return <SettingsLoadError message={overview.error.message} />;
  const { settings, backups, latest_restore: latestRestore } = overview.data;
  const missed = missedText(settings, backups);

  return (
    <div className="space-y-6">
      {missed && (
        <Alert tone="warning" title="Backups are overdue">
          <span data-testid="missed-backup">{missed}</span>
        </Alert>
      )}
      {latestRestore && (
        <RestoreProgressCard
          key={latestRestore.id}
          workspace={workspace}
          listed={latestRestore}
          backups={backups}
        />
      )}
      <BackupScheduleCard workspace={workspace} saved={settings} />
      <section aria-labelledby="backups-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="backups-heading" className="text-lg font-semibold text-zinc-900">
              Backups
            </h2>
            <p className="mt-1 text-sm text-zinc-600">
              Newest first. Backing up → Verifying → Verified: a backup is Verified only once a restore of it
              into a throwaway container matched what was backed up.
            </p>
          </div>
          <Button
            icon={Play}
            loading={backUpNow.isPending}
            disabled={!canBackUpNow(overview.data)}
            onClick={() => backUpNow.mutate()}
          >
            Back Up Now
          </Button>
        </div>
        {backUpNow.error && <Alert tone="error">{backUpNow.error.message}</Alert>}
        {backups.length === 0 ? (
          <EmptyState
            icon={DatabaseBackup}
            title="No backups yet"
            description="Press Back Up Now, or turn on the schedule above."
          />
        ) : (
          <BackupTable workspace={workspace} overview={overview.data} />
        )}
      </section>
    </div>
  );
}
