import { randomBytes } from 'node:crypto';
import {
  BACKUP_STATUS_LABELS,
  type Backup,
  type BackupKey,
  type BackupOverview,
  type BackupSettings,
  type BackupStatus,
  DEFAULT_BACKUP_TIME,
  DEFAULT_KEEP_DAILY,
  DEFAULT_KEEP_WEEKLY,
  type Restore,
  type StartRestore,
  type UpdateBackupSettings,
} from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import { shellWords } from '../infra/restic/resticLocation.js';
import type { Vault } from '../infra/vault/vault.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { checkSchedule, nextBackupAfter, scheduleColumns, scheduleOf } from './backupSchedule.js';
import type { BackupRow, BackupSettingsRow, BackupsRepository, RestoreRow } from './backupsRepository.js';
import { presentBackup, presentRestore, presentSettings } from './presenter.js';

const backupNotFound = () => new DomainError('not_found', 'Backup not found');
const restoreNotFound = () => new DomainError('not_found', 'Restore not found');

/** Hands a backup or restore to the workers (the durable runs' queue). */
export interface Launcher {
  backup(row: BackupRow): Promise<void>;
  restore(row: RestoreRow): Promise<void>;
}

/**
 * Workspace Settings → Backups for the workspace's owner (every lookup through `findOwned`: another user's
 * workspace answers 404): the overview, the schedule, Back Up Now, and restores.
 */
export function createBackupsService(deps: {
  repository: BackupsRepository;
  workspaces: Pick<WorkspacesRepository, 'findOwned'>;
  vault: Vault;
  /** Where repositories live, in words. */
  repositoryDescription: string;
  /** restic's options for the workspace's repository, and for a restore's safety repository (`{restore id}`). */
  repositoryOptions(workspace: WorkspaceRow): { repository: string[]; safety: string[] };
  launcher: Launcher;
  /** Whether a deployment of the workspace runs: a restore waits for it (it would replace the containers). */
  deploymentInProgress: (workspace: WorkspaceRow) => Promise<boolean>;
  now: () => Date;
}) {
  const { repository } = deps;

  /** The workspace's settings, made with the defaults (on, daily at 03:00 UTC) and a new random password the first time. */
  async function ensureSettings(workspace: WorkspaceRow): Promise<BackupSettingsRow> {
    const existing = await repository.settings(workspace.id);
    if (existing) return existing;
    const now = deps.now();
    const schedule = { kind: 'daily', time: DEFAULT_BACKUP_TIME } as const;
    return repository.insertSettings({
      workspaceId: workspace.id,
      enabled: true,
      ...scheduleColumns(schedule),
      keepDaily: DEFAULT_KEEP_DAILY,
      keepWeekly: DEFAULT_KEEP_WEEKLY,
      passwordEnc: await deps.vault.encrypt(randomBytes(32).toString('base64url')),
      nextBackupAt: nextBackupAfter(schedule, now),
      scheduledSince: now,
    });
  }

  const settingsView = (row: BackupSettingsRow) => presentSettings(row, deps.repositoryDescription);

  async function ownedBackup(user: { id: string }, name: string, backupId: string) {
    const workspace = await deps.workspaces.findOwned(user.id, name);
    const backup = await repository.findBackup(workspace.id, backupId);
    if (!backup) throw backupNotFound();
    return { workspace, backup };
  }

  return {
    ensureSettings,

    async overview(user: { id: string }, name: string): Promise<BackupOverview> {
      const workspace = await deps.workspaces.findOwned(user.id, name);
      const settings = await ensureSettings(workspace);
      const latest = await repository.latestRestore(workspace.id);
      return {
        settings: settingsView(settings),
        backups: (await repository.listBackups(workspace.id)).map(presentBackup),
        latest_restore: latest ? presentRestore(latest) : null,
      };
    },

    async setSettings(
      user: { id: string },
      name: string,
      input: UpdateBackupSettings,
    ): Promise<BackupSettings> {
      checkSchedule(input.schedule);
      const workspace = await deps.workspaces.findOwned(user.id, name);
      const current = await ensureSettings(workspace);
      const now = deps.now();
      const changed =
        current.enabled !== input.enabled ||
        JSON.stringify(scheduleOf(current)) !== JSON.stringify(scheduleOf(scheduleColumns(input.schedule)));
      const row = await repository.updateSettings(workspace.id, {
        enabled: input.enabled,
        ...scheduleColumns(input.schedule),
        keepDaily: input.keep_daily,
        keepWeekly: input.keep_weekly,
        ...(changed
          ? {
              nextBackupAt: input.enabled ? nextBackupAfter(input.schedule, now) : null,
              // A new schedule is judged from now on; backups off are never missed.
              scheduledSince: now,
              missedSince: null,
            }
          : {}),
      });
      return settingsView(row);
    },

    async backUpNow(user: { id: string }, name: string): Promise<Backup> {
      const workspace = await deps.workspaces.findOwned(user.id, name);
      await ensureSettings(workspace);
      const row = await repository.startBackup(workspace.id, workspace.name, 'manual', deps.now());
      await deps.launcher.backup(row);
      return presentBackup(row);
    },

    async getBackup(user: { id: string }, name: string, backupId: string): Promise<Backup> {
      return presentBackup((await ownedBackup(user, name, backupId)).backup);
    },

    async startRestore(
      user: { id: string },
      name: string,
      backupId: string,
      input: StartRestore,
    ): Promise<Restore> {
      const { workspace, backup } = await ownedBackup(user, name, backupId);
      if (backup.status !== 'verified') {
        throw new DomainError(
          'conflict',
          `Only a Verified backup can be restored: this one is ${BACKUP_STATUS_LABELS[backup.status as BackupStatus] ?? backup.status}.`,
        );
      }
      const inBackup = backup.parts.map((part) => part.service);
      if (input.service && !inBackup.includes(input.service)) {
        throw new DomainError(
          'unprocessable',
          `${input.service} is not in this backup: it holds ${inBackup.join(', ')}.`,
        );
      }
      if (await deps.deploymentInProgress(workspace)) {
        throw new DomainError(
          'deployment_in_progress',
          `A deployment of ${workspace.name} is running: restore once it has finished.`,
        );
      }
      await ensureSettings(workspace);
      const row = await repository.startRestore(
        {
          workspaceId: workspace.id,
          backupId: backup.id,
          services: input.service ? [input.service] : inBackup,
        },
        workspace.name,
        deps.now(),
      );
      await deps.launcher.restore(row);
      return presentRestore(row);
    },

    /**
     * The repository's location and password, to restore with plain restic if Slipway is lost: every export is
     * written to the audit log (who, which workspace, when), and nothing of it is kept anywhere but there.
     */
    async exportKey(user: { id: string; login: string }, name: string): Promise<BackupKey> {
      const workspace = await deps.workspaces.findOwned(user.id, name);
      const settings = await ensureSettings(workspace);
      const password = await deps.vault.decrypt(settings.passwordEnc);
      const options = deps.repositoryOptions(workspace);
      await repository.audit(user.login, 'backup_key.exported', user.id, {
        workspace: workspace.name,
        workspace_id: workspace.id,
      });
      const restic = shellWords(['restic', ...options.repository]);
      return {
        repository: shellWords(options.repository),
        password,
        safety_repositories: shellWords(options.safety),
        commands: [
          `${restic} snapshots --tag slipway-workspace-${workspace.id}`,
          `${restic} dump SNAPSHOT /SERVICE.sql > SERVICE.sql   (a database's dump: .sql, .rdb or .archive)`,
          `${restic} dump SNAPSHOT /SERVICE.tar | tar -x -C DIRECTORY   (a service's volumes' files)`,
        ],
      };
    },

    async getRestore(user: { id: string }, name: string, restoreId: string): Promise<Restore> {
      const workspace = await deps.workspaces.findOwned(user.id, name);
      const row = await repository.findRestore(workspace.id, restoreId);
      if (!row) throw restoreNotFound();
      return presentRestore(row);
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
