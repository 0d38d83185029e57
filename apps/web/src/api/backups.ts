import type { BackupOverview, Restore, StartRestore, UpdateBackupSettings } from '@slipway/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failingWith } from './failingWith';
import { callRoute } from './routeClient';
import { useWorkspaceQuery, type WorkspaceQueryOptions } from './workspaceQuery';

export const backupsKey = (workspace: string) => ['workspace-backups', workspace] as const;
export const restoreKey = (workspace: string, restoreId: string) =>
  ['workspace-restore', workspace, restoreId] as const;

/** GET /api/workspace-backups/{name}: settings, every backup newest first, and the latest restore. */
function fetchBackups(name: string) {
  return failingWith('Could not load the backups', () => callRoute('listBackups', { params: { name } }));
}

/** The workspace's backups; `refetchInterval` lets a screen poll while a backup or a restore runs. */
export const useBackups = (
  workspace: string,
  options: Pick<WorkspaceQueryOptions<BackupOverview>, 'refetchInterval'> = {},
) => useWorkspaceQuery(backupsKey, fetchBackups, workspace, { staleTime: 0, ...options });

/** PUT /api/workspace-backup-settings/{name}: the schedule and retention; the answer replaces the settings shown. */
export function useSetBackupSettings(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UpdateBackupSettings) =>
      failingWith('Could not save the backup settings', () =>
        callRoute('setBackupSettings', { params: { name: workspace }, body: settings }),
      ),
    onSuccess: (saved) =>
      queryClient.setQueryData<BackupOverview>(backupsKey(workspace), (overview) =>
        overview ? { ...overview, settings: saved } : overview,
      ),
  });
}

/** POST /api/workspace-backups/{name}: a backup of every named volume now; it is Verified once its restore checked out. */
export function useBackUpNow(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      failingWith('Could not start a backup', () => callRoute('backUpNow', { params: { name: workspace } })),
    onSuccess: (started) =>
      queryClient.setQueryData<BackupOverview>(backupsKey(workspace), (overview) =>
        overview ? { ...overview, backups: [started, ...overview.backups] } : overview,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: backupsKey(workspace) }),
  });
}

/** POST /api/workspace-backups/{name}/{backupId}/restore: one service's data, or every service's of the backup. */
export function useStartRestore(workspace: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ backupId, service }: { backupId: string } & StartRestore) =>
      failingWith('Could not start the restore', () =>
        callRoute('startRestore', {
          params: { name: workspace, backupId },
          body: service === undefined ? {} : { service },
        }),
      ),
    onSuccess: (started) => {
      queryClient.setQueryData(restoreKey(workspace, started.id), started);
      queryClient.setQueryData<BackupOverview>(backupsKey(workspace), (overview) =>
        overview ? { ...overview, latest_restore: started } : overview,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: backupsKey(workspace) }),
  });
}

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
