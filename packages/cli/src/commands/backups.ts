import {
  BACKUP_METHOD_LABELS,
  BACKUP_STATUS_LABELS,
  type Backup,
  type BackupKey,
  type BackupOverview,
  RESTORE_STATUS_LABELS,
  type Restore,
} from '@slipway/contract';
import { EXIT, RefusedError, UsageError } from '../cliErrors.js';
import { formatBytes, table } from '../output.js';
import type { CommandContext } from './commandContext.js';

const POLL_MS = 1000;

/** `backups list --json`: the API's overview (settings, backups newest first, latest restore) and the workspace. */
export interface BackupListResult extends BackupOverview {
  workspace: string;
}

/** `backups create --json`: the backup as it ended (as it started, with --no-wait). */
export interface BackupResult {
  workspace: string;
  backup: Backup;
}

/** `backups restore --json`: the restore as it ended (as it started, with --no-wait). */
export interface RestoreResult {
  workspace: string;
  restore: Restore;
}

const BACKUP_ENDED = new Set<Backup['status']>(['verified', 'failed']);
const RESTORE_ENDED = new Set<Restore['status']>(['done', 'failed', 'rolled_back']);

function schedule(settings: BackupOverview['settings']): string {
  if (!settings.enabled) return 'scheduled backups off';
  const when =
    settings.schedule.kind === 'daily'
      ? `daily at ${settings.schedule.time} UTC`
      : `cron ${settings.schedule.expression} (UTC)`;
  return `${when}, keeping ${settings.keep_daily} daily and ${settings.keep_weekly} weekly`;
}

function listText(r: BackupListResult): string[] {
  const lines = [`Backups of ${r.workspace}: ${schedule(r.settings)}; repository: ${r.settings.repository}`];
  if (r.settings.next_backup_at) lines.push(`Next backup: ${r.settings.next_backup_at}`);
  if (r.settings.missed_since) lines.push(`No backup verified since ${r.settings.missed_since}`);
  if (r.backups.length === 0) {
    lines.push(`No backups yet: take one with \`slipway backups create ${r.workspace}\``);
  } else {
    lines.push(
      ...table([
        ['ID', 'STATUS', 'TRIGGER', 'STARTED', 'SIZE', 'SERVICES'],
        ...r.backups.map((b) => [
          b.id,
          BACKUP_STATUS_LABELS[b.status],
          b.trigger,
          b.started_at,
          formatBytes(b.size_bytes),
          b.status === 'failed' || b.status === 'damaged'
            ? `${b.status}: ${b.cause ?? 'no reason given'}`
            : b.parts.map((p) => p.service).join(', '),
        ]),
      ]),
    );
  }
  const restore = r.latest_restore;
  if (restore) {
    lines.push(
      `Latest restore: ${restore.id} of backup ${restore.backup_id} (${restore.services.join(', ')}): ${RESTORE_STATUS_LABELS[restore.status]}${restore.cause ? ` — ${restore.cause}` : ''}`,
    );
  }
  return lines;
}

export async function backupsList(ctx: CommandContext, args: { workspace: string }): Promise<number> {
  const overview = await ctx.client.call('listBackups', { params: { name: args.workspace } });
  ctx.output.result<BackupListResult>({ workspace: args.workspace, ...overview }, listText);
  return EXIT.ok;
}

/** `backups key --json`: the API's export (repository, password, safety repositories, commands). */
export interface BackupKeyResult extends BackupKey {
  workspace: string;
}

/**
 * The repository's location and password (audited by the server): what plain restic needs to read the
 * workspace's backups if Slipway or its data directory is lost.
 */
export async function backupsKey(ctx: CommandContext, args: { workspace: string }): Promise<number> {
  const key = await ctx.client.call('exportBackupKey', { params: { name: args.workspace } });
  ctx.output.result<BackupKeyResult>({ workspace: args.workspace, ...key }, (r) => [
    `Backup key of ${r.workspace} (keep it where Slipway's machine is not; this export was written to the audit log)`,
    `Repository: ${r.repository}`,
    `Password: ${r.password}`,
    `Safety backups: ${r.safety_repositories}`,
    'With the password in a file (RESTIC_PASSWORD_FILE=…):',
    ...r.commands.map((command) => `  ${command}`),
  ]);
  return EXIT.ok;
}

/** Asks `read` every second until `ended`, noting each state it passes through on stderr. */
async function waitFor<T extends { status: string }>(
  ctx: CommandContext,
  first: T,
  read: () => Promise<T>,
  ended: (value: T) => boolean,
  label: (value: T) => string,
): Promise<T> {
  let current = first;
  let said = '';
  for (;;) {
    const now = label(current);
    const over = ended(current);
    if (now !== said) ctx.output.note(over ? now : `${now}…`);
    said = now;
    if (over) return current;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await read();
  }
}

function backupText(workspace: string, b: Backup): string[] {
  if (b.status === 'failed')
    return [`Backup ${b.id} of ${workspace} failed: ${b.cause ?? 'no reason given'}`];
  return [
    `Backup ${b.id} of ${workspace}: ${BACKUP_STATUS_LABELS[b.status]} (${formatBytes(b.size_bytes)})`,
    ...b.parts.map(
      (p) =>
        `  ${p.service}: ${BACKUP_METHOD_LABELS[p.method]}, ${formatBytes(p.size_bytes)}${p.checked ? ` — checked ${p.checked}` : ''}`,
    ),
  ];
}

/**
 * Back Up Now, then (unless --no-wait) waits until the backup is Verified (exit 0) or Failed (exit 1, with the
 * reason). Ctrl-C stops the waiting only: the backup goes on on the server.
 */
export async function backupsCreate(
  ctx: CommandContext,
  args: { workspace: string; wait: boolean },
): Promise<number> {
  const params = { name: args.workspace };
  const started = await ctx.client.call('backUpNow', { params });
  ctx.output.note(`Backing up ${args.workspace} (backup ${started.id})`);
  const backup = args.wait
    ? await waitFor(
        ctx,
        started,
        () => ctx.client.call('getBackup', { params: { ...params, backupId: started.id } }),
        (b) => BACKUP_ENDED.has(b.status),
        (b) => BACKUP_STATUS_LABELS[b.status],
      )
    : started;
  if (backup.status === 'failed') {
    ctx.output.result<BackupResult>({ workspace: args.workspace, backup }, () => []);
    for (const line of backupText(args.workspace, backup)) ctx.output.note(line);
    return EXIT.failed;
  }
  ctx.output.result<BackupResult>({ workspace: args.workspace, backup }, (r) =>
    args.wait ? backupText(r.workspace, r.backup) : `Backup ${r.backup.id} of ${r.workspace} started`,
  );
  return EXIT.ok;
}

/** A backup by its id or the first characters of it, from the workspace's list. */
async function findBackup(ctx: CommandContext, workspace: string, id: string): Promise<Backup> {
  const { backups } = await ctx.client.call('listBackups', { params: { name: workspace } });
  const exact = backups.find((b) => b.id === id);
  if (exact) return exact;
  const matches = backups.filter((b) => b.id.startsWith(id.toLowerCase()));
  if (matches.length > 1) {
    throw new UsageError(`${id} matches ${matches.length} backups of ${workspace}; give more of its id`);
  }
  if (!matches[0]) throw new RefusedError(`${workspace} has no backup ${id}`);
  return matches[0];
}

function restoreText(workspace: string, r: Restore): string {
  const what = `${r.services.join(', ')} of ${workspace} from backup ${r.backup_id}`;
  if (r.status === 'done') return `Restored ${what}`;
  if (r.status === 'rolled_back') {
    return `Restoring ${what} failed: ${r.cause ?? 'no reason given'}; the data as it was was put back (safety backup ${r.safety_backup_id ?? ''})`;
  }
  if (r.status === 'failed') return `Restoring ${what} failed: ${r.cause ?? 'no reason given'}`;
  return `Restoring ${what} (restore ${r.id}): ${RESTORE_STATUS_LABELS[r.status]}`;
}

/**
 * Restores a Verified backup (every service of it, or --service), after asking on a terminal (--yes elsewhere),
 * then waits for the outcome: exit 0 restored, 1 failed (the server puts the data as it was back).
 */
export async function backupsRestore(
  ctx: CommandContext,
  args: { workspace: string; backup: string; service: string | undefined; yes: boolean; wait: boolean },
): Promise<number> {
  const backup = await findBackup(ctx, args.workspace, args.backup);
  if (!args.yes) {
    if (!ctx.ask) throw new UsageError('Pass --yes to restore a backup when stdin is not a terminal');
    const services = args.service ?? backup.parts.map((p) => p.service).join(', ');
    const answer = await ctx.ask(
      `This puts the data of ${services} of ${args.workspace} back as it was at ${backup.started_at} (a safety backup is taken first). Type the workspace's name to go on: `,
    );
    if (answer.trim() !== args.workspace) throw new RefusedError('Nothing restored: that is not its name');
  }
  const params = { name: args.workspace };
  const started = await ctx.client.call('startRestore', {
    params: { ...params, backupId: backup.id },
    body: args.service ? { service: args.service } : {},
  });
  ctx.output.note(`Restoring backup ${backup.id} of ${args.workspace} (restore ${started.id})`);
  const restore = args.wait
    ? await waitFor(
        ctx,
        started,
        () => ctx.client.call('getRestore', { params: { ...params, restoreId: started.id } }),
        (r) => RESTORE_ENDED.has(r.status),
        (r) => RESTORE_STATUS_LABELS[r.status],
      )
    : started;
  const failed = restore.status === 'failed' || restore.status === 'rolled_back';
  ctx.output.result<RestoreResult>({ workspace: args.workspace, restore }, (r) =>
    failed ? [] : restoreText(r.workspace, r.restore),
  );
  if (failed) {
    ctx.output.note(restoreText(args.workspace, restore));
    return EXIT.failed;
  }
  return EXIT.ok;
}
