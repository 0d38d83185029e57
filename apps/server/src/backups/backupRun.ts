import type { Logger } from 'pino';
import {
  type BackupEngine,
  BackupError,
  type PartResult,
  type ResticRepository,
  type ServiceData,
} from '../infra/backup/backupEngine.js';
import type { StoredBackupPart } from '../infra/db/backupTables.js';
import { composeProjectName } from '../infra/docker/conventions.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BackupRow, BackupsRepository } from './backupsRepository.js';

/** How often a running backup or restore tells the database it is alive. */
export const HEARTBEAT_MS = 10_000;
/** A backup or restore whose heartbeat is older than this was left by a crash. */
export const STALE_AFTER_MS = 6 * HEARTBEAT_MS;

/** What a backup shows when something failed that is not one of the engine's sentences (details: the server log). */
export const unexpectedFailure = (what: 'backup' | 'restore') =>
  `The ${what} failed for a reason Slipway did not expect; the details are in the server log.`;

export interface RunDeps {
  engine: BackupEngine;
  repository: BackupsRepository;
  logger: Logger;
  now: () => Date;
  /** The workspace's repository, opened with its location and password. */
  openRepository(workspace: WorkspaceRow): Promise<ResticRepository>;
}

export const storedPart = (part: PartResult, checked: string | null = null): StoredBackupPart => ({
  service: part.service,
  method: part.method,
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint,
  checked,
});

export const partResult = (part: StoredBackupPart): PartResult => ({
  service: part.service,
  method: part.method as PartResult['method'],
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint as PartResult['fingerprint'],
});

/** The sentence for a row: the engine's own, or the generic one with the details logged. */
export function causeOf(error: unknown, logger: Logger, what: Record<string, unknown>): string {
  if (error instanceof BackupError) return error.message;
  logger.error({ err: error, ...what }, 'backup work failed unexpectedly');
  return unexpectedFailure('restore' in what ? 'restore' : 'backup');
}

/** Beats the row's heartbeat until `stop` is called. */
export function heartbeat(deps: RunDeps, kind: 'backup' | 'restore', id: string) {
  const timer = setInterval(() => {
    deps.repository
      .beat(kind, id, deps.now())
      .catch((error) => deps.logger.warn({ err: error, [kind]: id }, `${kind} heartbeat failed`));
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The services of the workspace's running project that keep data in named volumes (all, or those named). */
export async function dataOf(
  deps: RunDeps,
  workspace: WorkspaceRow,
  services?: readonly string[],
): Promise<ServiceData[]> {
  const all = await deps.engine.describeProjectData(composeProjectName(workspace.id));
  return services ? all.filter((data) => services.includes(data.service)) : all;
}

export const tagsOf = (workspace: WorkspaceRow, backup: BackupRow) => [
  `slipway-workspace-${workspace.id}`,
  `slipway-backup-${backup.id}`,
  `slipway-trigger-${backup.trigger}`,
];

/** A backup whose parts are all in the repository, not yet verified (its row is Verifying). */
export interface WrittenBackup {
  row: BackupRow;
  repo: ResticRepository;
  data: ServiceData[];
  parts: PartResult[];
}

/** Records a backup's failure with its sentence, removing the parts already written from the repository. */
async function failBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  backup: BackupRow,
  error: unknown,
  repo: ResticRepository | undefined,
  parts: PartResult[],
): Promise<BackupRow> {
  const cause = causeOf(error, deps.logger, { workspace: workspace.id, backup: backup.id });
  if (repo && parts.length > 0) {
    await repo
      .removeSnapshots(parts.map((part) => part.snapshotId))
      .catch((removal) =>
        deps.logger.warn(
          { err: removal, workspace: workspace.id, backup: backup.id },
          "removing a failed backup's snapshots failed",
        ),
      );
  }
  return deps.repository.updateBackup(backup.id, { status: 'failed', cause, finishedAt: deps.now() });
}

/**
 * A backup's first half: each service's dump or files into the repository, each part recorded as soon as it
 * is there; the row is then Verifying. restic has written every snapshot: the data can be put back from it.
 * Answers the failed row when something went wrong (its parts removed).
 */
export async function writeBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  backup: BackupRow,
  services?: readonly string[],
): Promise<WrittenBackup | BackupRow> {
  const parts: PartResult[] = [];
  let repo: ResticRepository | undefined;
  try {
    repo = await deps.openRepository(workspace);
    await repo.ensureInitialised();
    const data = await dataOf(deps, workspace, services);
    if (data.length === 0) {
      throw new BackupError(
        services
          ? `None of ${services.join(', ')} runs with data in a named volume: there is nothing to back up.`
          : `No running service of ${workspace.name} keeps data in a named volume: there is nothing to back up.`,
      );
    }
    for (const service of data) {
      parts.push(await deps.engine.backUpService(repo, service, tagsOf(workspace, backup)));
      await deps.repository.addPart(
        backup.id,
        parts.map((part) => storedPart(part)),
        deps.now(),
      );
    }
    const row = await deps.repository.updateBackup(backup.id, {
      status: 'verifying',
      heartbeatAt: deps.now(),
    });
    return { row, repo, data, parts };
  } catch (error) {
    return failBackup(deps, workspace, backup, error, repo, parts);
  }
}

/**
 * A backup's second half: each part restored into a throwaway container and compared; Verified only when every
 * part checked out. A failure is recorded with its sentence and the parts are removed from the repository, so
 * nothing unverified is ever offered for a restore.
 */
export async function verifyBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  written: WrittenBackup,
  beforeVerified?: (repo: ResticRepository, backup: BackupRow) => Promise<void>,
): Promise<BackupRow> {
  const { row: backup, repo, data, parts } = written;
  try {
    const checked: StoredBackupPart[] = [];
    for (const part of parts) {
      const service = data.find((candidate) => candidate.service === part.service)!;
      const verification = await deps.engine.verifyPart(repo, service, part);
      if (!verification.ok) {
        throw new BackupError(`Verifying ${part.service} failed: ${verification.reason}`);
      }
      checked.push(storedPart(part, verification.checked));
    }
    const done = await deps.repository.updateBackup(backup.id, { parts: checked });
    await beforeVerified?.(repo, done).catch((error) =>
      deps.logger.warn(
        { err: error, workspace: workspace.id, backup: backup.id },
        'applying backup retention failed',
      ),
    );
    const now = deps.now();
    return await deps.repository.updateBackup(backup.id, {
      status: 'verified',
      parts: checked,
      finishedAt: now,
      verifiedAt: now,
    });
  } catch (error) {
    return failBackup(deps, workspace, backup, error, repo, parts);
  }
}

export const isWritten = (result: WrittenBackup | BackupRow): result is WrittenBackup => 'repo' in result;

/** One backup, start to end: written (`writeBackup`), then verified (`verifyBackup`). */
export async function runBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  backup: BackupRow,
  options: {
    services?: readonly string[];
    /** Run once every part checked out, before the backup is marked Verified (retention). */
    beforeVerified?: (repo: ResticRepository, backup: BackupRow) => Promise<void>;
  } = {},
): Promise<BackupRow> {
  const stopBeating = heartbeat(deps, 'backup', backup.id);
  try {
    const written = await writeBackup(deps, workspace, backup, options.services);
    return isWritten(written)
      ? await verifyBackup(deps, workspace, written, options.beforeVerified)
      : written;
  } finally {
    stopBeating();
  }
}
