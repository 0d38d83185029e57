import {
  backupOverviewSchema,
  backupParamsSchema,
  backupSchema,
  backupSettingsSchema,
  restoreParamsSchema,
  restoreSchema,
  startRestoreSchema,
  updateBackupSettingsSchema,
} from '../backups.js';
import { route } from '../route.js';
import { workspaceNameParamSchema } from '../workspaces.js';

/** Workspace Settings → Backups: schedule, Back Up Now, the list, and restores. */
export const backupRoutes = {
  listBackups: route({
    method: 'GET',
    path: '/api/workspace-backups/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 200: backupOverviewSchema },
    note: 'Settings, every backup newest first (Verified, Failed with its reason, or still running), and the latest restore.',
  }),
  setBackupSettings: route({
    method: 'PUT',
    path: '/api/workspace-backup-settings/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    body: updateBackupSettingsSchema,
    responses: { 200: backupSettingsSchema },
    note: 'A cron expression the schedule catalogue cannot read is refused with the reason.',
  }),
  backUpNow: route({
    method: 'POST',
    path: '/api/workspace-backups/:name',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 202: backupSchema },
    note: 'Starts a backup of every named volume now; it is Verified only once a restore of it into a throwaway container checked out. 409 while another backup or a restore of the workspace runs.',
  }),
  getBackup: route({
    method: 'GET',
    path: '/api/workspace-backups/:name/:backupId',
    kind: 'json',
    access: 'whitelisted',
    params: backupParamsSchema,
    responses: { 200: backupSchema },
  }),
  startRestore: route({
    method: 'POST',
    path: '/api/workspace-backups/:name/:backupId/restore',
    kind: 'json',
    access: 'whitelisted',
    params: backupParamsSchema,
    body: startRestoreSchema,
    responses: { 202: restoreSchema },
    note: 'Takes a safety backup first, stops the affected services, restores their volumes (or loads the dump), starts and health-checks them; a failed restore puts the safety backup back. Only a Verified backup can be restored.',
  }),
  getRestore: route({
    method: 'GET',
    path: '/api/workspace-restores/:name/:restoreId',
    kind: 'json',
    access: 'whitelisted',
    params: restoreParamsSchema,
    responses: { 200: restoreSchema },
    note: 'Its progress, for following it live.',
  }),
};
