import type {
  Backup,
  BackupKey,
  BackupOverview,
  Restore,
  StartRestore,
  UpdateBackupSettings,
} from '@slipway/contract';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceMutation } from './workspaceMutation';
import { type Polling, useWorkspaceQuery } from './workspaceQuery';

export const backupsKey = (workspace: string) => ['workspace-backups', workspace] as const;
export const restoreKey = (workspace: string, restoreId: string) =>
  ['workspace-restore', workspace, restoreId] as const;

/** GET /api/workspace-backups/{name}: settings, every backup newest first, and the latest restore. */
function fetchBackups(name: string) {
  return failingWith('Could not load the backups', () => callRoute('listBackups', { params: { name } }));
}

/** The workspace's backups; `refetchInterval` lets a screen poll while a backup or a restore runs. */
export const useBackups = (workspace: string, options: Polling<BackupOverview> = {}) =>
  useWorkspaceQuery(backupsKey, fetchBackups, workspace, { staleTime: 0, ...options });

/** The cached overview with `change` made to it, once there is one. */
const changeOverview = (
  cache: QueryClient,
  workspace: string,
  change: (overview: BackupOverview) => Partial<BackupOverview>,
) =>
  cache.setQueryData<BackupOverview>(backupsKey(workspace), (overview) =>
    overview ? { ...overview, ...change(overview) } : overview,
  );

/** PUT /api/workspace-backup-settings/{name}: the schedule and retention; the answer replaces the settings shown. */
export const useSetBackupSettings = (workspace: string) =>
  useWorkspaceMutation({
    failure: 'Could not save the backup settings',
    send: (settings: UpdateBackupSettings) =>
      callRoute('setBackupSettings', { params: { name: workspace }, body: settings }),
    answered: (saved, cache) => changeOverview(cache, workspace, () => ({ settings: saved })),
  });

/** POST /api/workspace-backups/{name}: a backup of every named volume now; it is Verified once its restore checked out. */
export const useBackUpNow = (workspace: string) =>
  useWorkspaceMutation<void, Backup>({
    failure: 'Could not start a backup',
    send: () => callRoute('backUpNow', { params: { name: workspace } }),
    answered: (started, cache) =>
      changeOverview(cache, workspace, (overview) => ({ backups: [started, ...overview.backups] })),
    reread: backupsKey(workspace),
  });

/** POST /api/workspace-backups/{name}/{backupId}/restore: one service's data, or every service's of the backup. */
export const useStartRestore = (workspace: string) =>
  useWorkspaceMutation({
    failure: 'Could not start the restore',
    send: ({ backupId, service }: { backupId: string } & StartRestore) =>
      callRoute('startRestore', {
        params: { name: workspace, backupId },
        body: service === undefined ? {} : { service },
      }),
    answered: (started, cache) => {
      cache.setQueryData(restoreKey(workspace, started.id), started);
      changeOverview(cache, workspace, () => ({ latest_restore: started }));
    },
    reread: backupsKey(workspace),
  });

/**
 * GET /api/workspace-restores/{name}/{restoreId}: one restore's progress, starting from what is already known of
 * it; `refetchInterval` follows it live while it runs.
 */
export function useRestore(
  workspace: string,
  known: Restore,
  refetchInterval: (restore: Restore | undefined) => number | false,
) {
  return useQuery({
    queryKey: restoreKey(workspace, known.id),
    queryFn: () =>
      failingWith('Could not read the restore’s progress', () =>
        callRoute('getRestore', { params: { name: workspace, restoreId: known.id } }),
      ),
    initialData: known,
    // The known answer may be old (read with the list): read it again at once, then as `refetchInterval` says.
    initialDataUpdatedAt: 0,
    staleTime: 0,
    refetchInterval: (query) => refetchInterval(query.state.data),
  });
}

/**
 * POST /api/workspace-backup-key/{name}: the repository's location and password, to restore with plain restic if
 * Slipway is lost. The server writes every export to the audit log; the page shows it once and keeps it nowhere.
 */
export const useExportBackupKey = (workspace: string) =>
  useWorkspaceMutation<void, BackupKey>({
    failure: 'Could not export the backup key',
    send: () => callRoute('exportBackupKey', { params: { name: workspace } }),
  });
