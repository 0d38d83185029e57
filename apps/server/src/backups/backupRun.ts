import type { Logger } from 'pino';
import type { StoredBackupPart } from '../infra/db/backupTables.js';
import { composeProjectName } from '../infra/docker/conventions.js';
import type { ResticRepository } from '../infra/restic/resticRepository.js';
import type { DurableKind, RunContext } from '../jobs/durableRuns.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BackupAlerts } from './backupAlerts.js';
import type { BackupRow, BackupsRepository } from './backupsRepository.js';
import {
  asBackupError,
  type BackupEngine,
  BackupError,
  type PartResult,
  type ServiceData,
} from './engine/backupEngine.js';

export const RESTARTED_DURING_BACKUP = 'Slipway restarted during this backup.';

/** What a backup shows when something failed that is not one of the engine's sentences (details: the server log). */
export const unexpectedFailure = (what: 'backup' | 'restore') =>
  `The ${what} failed for a reason Slipway did not expect; the details are in the server log.`;

export interface RunDeps {
  engine: BackupEngine;
  repository: BackupsRepository;
  alerts: BackupAlerts;
  workspaces: { findById(id: string): Promise<WorkspaceRow | undefined> };
  logger: Logger;
  now: () => Date;
  /** The repository a backup's snapshots are in: the workspace's own, or a safety backup's (`backup.repository`). */
  openRepository(workspace: WorkspaceRow, backup?: Pick<BackupRow, 'repository'>): Promise<ResticRepository>;
  /** Run once every part of a scheduled or manual backup checked out, before it is marked Verified (retention). */
  beforeVerified(repo: ResticRepository, workspace: WorkspaceRow, backup: BackupRow): Promise<void>;
  /**
   * Tells the health monitor these services stop on purpose, for at most `boundMs` (alerts/expectedStops.ts):
   * their deaths raise no crash alert until `end`.
   */
  announceStops(
    workspace: WorkspaceRow,
    services: string[],
    reason: 'backup' | 'restore',
    boundMs: number,
  ): Promise<{ end(): Promise<void> }>;
}

/** How long a backup's copy (a service stopped for it) or a restore's swap may keep services stopped at most. */
export const STOPS_BOUND_MS = 30 * 60_000;

export const storedPart = (part: PartResult, checked: string | null = null): StoredBackupPart => ({
  service: part.service,
  method: part.method,
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint,
  checked,
  ...(part.sha256 ? { sha256: part.sha256 } : {}),
});

export const partResult = (part: StoredBackupPart): PartResult => ({
  service: part.service,
  method: part.method as PartResult['method'],
  volumes: part.volumes,
  snapshotId: part.snapshotId,
  sizeBytes: part.sizeBytes,
  addedBytes: part.addedBytes,
  fingerprint: part.fingerprint as PartResult['fingerprint'],
  ...(part.sha256 ? { sha256: part.sha256 } : {}),
});

/** The sentence for a row: the engine's or restic's own, or the generic one with the details logged. */
export function causeOf(error: unknown, logger: Logger, what: Record<string, unknown>): string {
  const sentence = asBackupError(error);
  if (sentence) return sentence.message;
  logger.error({ err: error, ...what }, 'backup work failed unexpectedly');
  return unexpectedFailure('restore' in what ? 'restore' : 'backup');
}

/** The services of the workspace's running project that keep data in named volumes (all, or those named). */
export async function dataOf(
  deps: Pick<RunDeps, 'engine'>,
  workspace: WorkspaceRow,
  services?: readonly string[],
): Promise<ServiceData[]> {
  const all = await deps.engine.describeProjectData(composeProjectName(workspace.id));
  return services ? all.filter((data) => services.includes(data.service)) : all;
}

/** Every snapshot of a backup carries its id: what a crash left half-written is found by it. */
const backupTag = (backup: Pick<BackupRow, 'id'>) => `slipway-backup-${backup.id}`;

export const tagsOf = (workspace: WorkspaceRow, backup: BackupRow) => [
  `slipway-workspace-${workspace.id}`,
  backupTag(backup),
  `slipway-trigger-${backup.trigger}`,
];

/** A backup whose parts are all in the repository, not yet verified (its row is Verifying). */
export interface WrittenBackup {
  row: BackupRow;
  repo: ResticRepository;
  data: ServiceData[];
  parts: PartResult[];
}

/**
 * Records a backup's failure with its sentence, removing from the repository everything it wrote (every
 * snapshot tagged with its id, recorded or not: a crash can leave one that was never recorded).
 */
export async function failBackup(
  deps: Pick<RunDeps, 'repository' | 'logger' | 'now'>,
  backup: BackupRow,
  cause: string,
  repo: ResticRepository | undefined,
): Promise<BackupRow> {
  if (repo) await forgetWritten(deps, repo, backup);
  return deps.repository.updateBackup(backup.id, { status: 'failed', cause, finishedAt: deps.now() });
}

async function forgetWritten(
  deps: Pick<RunDeps, 'logger'>,
  repo: ResticRepository,
  backup: BackupRow,
): Promise<void> {
  try {
    const written = await repo.listSnapshots([backupTag(backup)]);
    const recorded = backup.parts.map((part) => part.snapshotId);
    await repo.removeSnapshots([...new Set([...written.map((snapshot) => snapshot.id), ...recorded])]);
  } catch (error) {
    deps.logger.warn({ err: error, backup: backup.id }, "removing a failed backup's snapshots failed");
  }
}

/**
 * A backup's first half: each service's dump or files into the repository, each part recorded as soon as it
 * is there; the row is then Verifying. restic has written every snapshot: the data can be put back from it.
 * Answers the failed row when something went wrong (its snapshots removed).
 */
export async function writeBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  backup: BackupRow,
  repo: ResticRepository,
  context: Pick<RunContext, 'reached'>,
  services?: readonly string[],
): Promise<WrittenBackup | BackupRow> {
  const parts: PartResult[] = [];
  try {
    await repo.ensureInitialised();
    // A lock left by a restic that died (its process gone) would stop this backup: restic removes only those.
    await repo.unlockStale();
    const data = await dataOf(deps, workspace, services);
    if (data.length === 0) {
      throw new BackupError(
        services
          ? `None of ${services.join(', ')} runs with data in a named volume: there is nothing to back up.`
          : `No running service of ${workspace.name} keeps data in a named volume: there is nothing to back up.`,
      );
    }
    for (const service of data) {
      // A service labelled to be stopped for its copy is stopped and started again: no crash alert for that.
      const stops = service.stopForCopy
        ? await deps.announceStops(workspace, [service.service], 'backup', STOPS_BOUND_MS)
        : undefined;
      try {
        parts.push(await deps.engine.backUpService(repo, service, tagsOf(workspace, backup)));
      } finally {
        await stops?.end();
      }
      await deps.repository.addPart(
        backup.id,
        parts.map((part) => storedPart(part)),
        deps.now(),
      );
      context.reached(`part-written:${service.service}`);
    }
    const row = await deps.repository.updateBackup(backup.id, {
      status: 'verifying',
      heartbeatAt: deps.now(),
    });
    context.reached('verifying');
    return { row, repo, data, parts };
  } catch (error) {
    const cause = causeOf(error, deps.logger, { workspace: workspace.id, backup: backup.id });
    return failBackup(deps, { ...backup, parts: parts.map((part) => storedPart(part)) }, cause, repo);
  }
}

/**
 * A backup's second half: each part checked — restored into a throwaway container and compared (`load`), or
 * read back in full and compared byte for byte (`readBack`, a restore's safety backup) — and Verified only when
 * every part checked out. A failure is recorded with its sentence and the snapshots are removed, so nothing
 * unverified is ever offered for a restore.
 */
export async function verifyBackup(
  deps: RunDeps,
  workspace: WorkspaceRow,
  written: WrittenBackup,
  how: 'load' | 'readBack',
  context: Pick<RunContext, 'reached'>,
): Promise<BackupRow> {
  const { row: backup, repo, data, parts } = written;
  try {
    const checked: StoredBackupPart[] = [];
    for (const part of parts) {
      const service = data.find((candidate) => candidate.service === part.service)!;
      const verification =
        how === 'load'
          ? await deps.engine.verifyPart(repo, service, part)
          : await deps.engine.readBack(repo, part);
      if (!verification.ok) {
        throw new BackupError(`Verifying ${part.service} failed: ${verification.reason}`);
      }
      checked.push(storedPart(part, verification.checked));
      context.reached(`part-verified:${part.service}`);
    }
    const done = await deps.repository.updateBackup(backup.id, { parts: checked });
    if (how === 'load') {
      await deps
        .beforeVerified(repo, workspace, done)
        .catch((error) =>
          deps.logger.warn(
            { err: error, workspace: workspace.id, backup: backup.id },
            'applying backup retention failed',
          ),
        );
    }
    const now = deps.now();
    return await deps.repository.updateBackup(backup.id, {
      status: 'verified',
      parts: checked,
      finishedAt: now,
      verifiedAt: now,
    });
  } catch (error) {
    const cause = causeOf(error, deps.logger, { workspace: workspace.id, backup: backup.id });
    return failBackup(deps, backup, cause, repo);
  }
}

export const isWritten = (result: WrittenBackup | BackupRow): result is WrittenBackup => 'repo' in result;

/** A scheduled or manual backup's alerts: a verified one ends the open ones; a failed one raises one. */
async function alertOutcome(deps: RunDeps, workspace: WorkspaceRow, done: BackupRow) {
  if (done.status === 'verified') {
    await deps.repository.updateSettings(workspace.id, { missedSince: null });
    await deps.alerts.verified(workspace);
  } else {
    await deps.alerts.failed(workspace, done.cause ?? 'The backup failed.');
  }
}

/**
 * Backups as durable runs (jobs/durableRuns.ts): written, then verified; after a crash, what the dead run wrote
 * is removed (its snapshots, found by its tag, and the lock a killed restic left) and it ends Failed, saying so.
 */
export function backupKind(deps: RunDeps): DurableKind<'backup.run', BackupRow> {
  const { repository } = deps;
  return {
    job: 'backup.run',
    claim: (id, now, staleBefore) => repository.claimBackup(id, now, staleBefore),
    beat: (id, now) => repository.beat('backup', id, now),
    stale: (before) => repository.staleBackups(before),
    ended: async (id) => {
      const row = await repository.backupById(id);
      return !row || !['running', 'verifying'].includes(row.status);
    },

    async run(backup, context) {
      const workspace = await deps.workspaces.findById(backup.workspaceId);
      if (!workspace) {
        await repository.updateBackup(backup.id, {
          status: 'failed',
          cause: 'The workspace no longer exists.',
          finishedAt: deps.now(),
        });
        return;
      }
      let repo: ResticRepository;
      try {
        repo = await deps.openRepository(workspace);
      } catch (error) {
        const cause = causeOf(error, deps.logger, { workspace: workspace.id, backup: backup.id });
        await alertOutcome(deps, workspace, await failBackup(deps, backup, cause, undefined));
        return;
      }
      const written = await writeBackup(deps, workspace, backup, repo, context);
      const done = isWritten(written)
        ? await verifyBackup(deps, workspace, written, 'load', context)
        : written;
      await alertOutcome(deps, workspace, done);
    },

    async resume(backup) {
      const workspace = await deps.workspaces.findById(backup.workspaceId);
      const repo = workspace ? await deps.openRepository(workspace).catch(() => undefined) : undefined;
      await repo
        ?.unlockStale()
        .catch((error) =>
          deps.logger.warn({ err: error, backup: backup.id }, "removing an interrupted backup's lock failed"),
        );
      if (!workspace) {
        await repository.updateBackup(backup.id, {
          status: 'failed',
          cause: RESTARTED_DURING_BACKUP,
          finishedAt: deps.now(),
        });
        return;
      }
      deps.logger.warn({ workspace: workspace.id, backup: backup.id }, 'a backup was interrupted');
      const failed = await failBackup(deps, backup, RESTARTED_DURING_BACKUP, repo);
      await alertOutcome(deps, workspace, failed);
    },
  };
}
