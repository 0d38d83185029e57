import type { RouteHandlers } from '../http/registerRoutes.js';
import type { BackupsService } from './backupsService.js';

/** Workspace Settings → Backups: thin handlers over the service. */
export function backupRoutes(deps: { backups: BackupsService }) {
  const { backups } = deps;
  return {
    listBackups: ({ user, params }) => backups.overview(user, params.name),
    setBackupSettings: ({ user, params, body }) => backups.setSettings(user, params.name, body),
    backUpNow: ({ user, params }) => backups.backUpNow(user, params.name),
    getBackup: ({ user, params }) => backups.getBackup(user, params.name, params.backupId),
    startRestore: ({ user, params, body }) => backups.startRestore(user, params.name, params.backupId, body),
    getRestore: ({ user, params }) => backups.getRestore(user, params.name, params.restoreId),
    exportBackupKey: ({ user, params }) => backups.exportKey(user, params.name),
  } satisfies Partial<RouteHandlers>;
}
