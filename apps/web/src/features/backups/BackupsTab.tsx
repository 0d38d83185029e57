import type { BackupOverview } from '@slipway/contract';
import { DatabaseBackup, Play } from 'lucide-react';
import { useBackUpNow, useBackups } from '../../api/backups';
import { AsyncSection } from '../../components/AsyncSection';
import { backupsPollInterval, canBackUpNow, missedText } from '../../components/backups/backupView';
import { EmptyState } from '../../components/EmptyState';
import { Section } from '../../components/Section';
import { settingsLoadError } from '../../components/settings/SettingsLoadError';
import type { SettingsTab } from '../../components/settings/settingsTab';
import { Alert, Button } from '../../components/ui';
import { BackupKeyCard } from './BackupKeyCard';
import { BackupScheduleCard } from './BackupScheduleCard';
import { BackupTable } from './BackupTable';
import { RestoreProgressCard } from './RestoreProgressCard';

/**
 * Workspace Settings → Backups: a banner when none was verified in time, the latest restore followed live, the
 * schedule, Back Up Now and every backup with Restore. The list is read every 2 s while a backup or a restore runs.
 */
export function BackupsTab({ workspace }: { workspace: string }) {
  const overview = useBackups(workspace, { refetchInterval: backupsPollInterval });
  return (
    <AsyncSection query={overview} failed={settingsLoadError}>
      {(data) => <Backups workspace={workspace} overview={data} />}
    </AsyncSection>
  );
}

export const backupsTab: SettingsTab = {
  id: 'backups',
  label: 'Backups',
  icon: DatabaseBackup,
  Panel: BackupsTab,
};

function Backups({ workspace, overview }: { workspace: string; overview: BackupOverview }) {
  const backUpNow = useBackUpNow(workspace);
  const { settings, backups, latest_restore: latestRestore } = overview;
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
      <Section
        title="Backups"
        description="Newest first. Backing up → Verifying → Verified: a backup is Verified only once a restore of it into a throwaway container matched what was backed up."
        actions={
          <Button
            icon={Play}
            loading={backUpNow.isPending}
            disabled={!canBackUpNow(overview)}
            onClick={() => backUpNow.mutate()}
          >
            Back Up Now
          </Button>
        }
      >
        {backUpNow.error && <Alert tone="error">{backUpNow.error.message}</Alert>}
        {backups.length === 0 ? (
          <EmptyState
            icon={DatabaseBackup}
            title="No backups yet"
            description="Press Back Up Now, or turn on the schedule above."
          />
        ) : (
          <BackupTable workspace={workspace} overview={overview} />
        )}
      </Section>
      <BackupKeyCard workspace={workspace} />
    </div>
  );
}
