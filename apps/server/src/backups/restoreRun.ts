import type Docker from 'dockerode';
import type { RestorePlan } from '../infra/db/backupTables.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listContainersOfProject } from '../infra/docker/projectResources.js';
import type { ResticRepository } from '../infra/restic/resticRepository.js';
import type { DurableKind, RunContext } from '../jobs/durableRuns.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import {
  causeOf,
  dataOf,
  isWritten,
  partResult,
  type RunDeps,
  verifyBackup,
  writeBackup,
} from './backupRun.js';
import type { BackupRow, RestoreRow } from './backupsRepository.js';
import { BackupError, type ServiceData, type StagedPart } from './engine/backupEngine.js';

export const RESTARTED_BEFORE_CHANGE =
  'Slipway restarted while this restore was reading the backup: nothing was changed. Start the restore again.';
export const RESTARTED_DURING_RESTORE =
  'Slipway restarted during this restore: check the services; its safety backup holds the data as it was before.';

export interface RestoreDeps extends RunDeps {
  docker: Docker;
  /**
   * The deployment health model over these services of the workspace; throws a BackupError saying what failed,
   * `After {after}, …` ("the restore" by default).
   */
  checkHealth(workspace: WorkspaceRow, services: string[], after?: string): Promise<void>;
  /** A restore's safety backup's repository: one of its own, so that its data never shares another's packs. */
  openSafetyRepository(workspace: WorkspaceRow, restoreId: string): Promise<ResticRepository>;
  /** Says the restore stops these services on purpose, before it does (no crash alert for them). */
  announceStops(workspace: WorkspaceRow, services: string[]): Promise<void>;
  /** Once a restore has ended: older safety backups, and their repositories, go. */
  afterRestore(workspace: WorkspaceRow): Promise<void>;
}

const ignoreSettled = (error: { statusCode?: number }) => {
  // 304: already in the state asked for; 404: removed meanwhile.
  if (![304, 404].includes(error.statusCode ?? 0)) throw error;
};

/** One restore's work, with its row kept up to date: what a takeover after a crash reads. */
class Restore {
  constructor(
    readonly deps: RestoreDeps,
    readonly workspace: WorkspaceRow,
    public row: RestoreRow,
    readonly context: RunContext,
  ) {}

  get units() {
    return this.row.plan.staged.flatMap((part) => part.units);
  }

  async step(status: RestoreRow['status'], values: Partial<RestoreRow> = {}) {
    this.row = await this.deps.repository.updateRestore(this.row.id, {
      ...values,
      status,
      heartbeatAt: this.deps.now(),
    });
    this.context.reached(status);
  }

  /** Ends the row; its alert is recorded first, so that whoever sees the row ended finds the alert too. */
  async finish(status: 'done' | 'failed' | 'rolled_back', cause: string | null, backup?: BackupRow) {
    if (status !== 'done') await this.deps.alerts.restoreFailed(this.workspace, this.row.id, cause ?? '');
    else if (backup) {
      await this.deps.alerts.restored(this.workspace, this.row.id, backup.startedAt, this.row.services);
    }
    await this.step(status, { cause, finishedAt: this.deps.now() });
    await this.deps
      .afterRestore(this.workspace)
      .catch((error) =>
        this.deps.logger.warn({ err: error, restore: this.row.id }, 'removing older safety backups failed'),
      );
  }

  /** Removes every volume the restore made: only once its data is in place, or the live data is back. */
  async discard() {
    await this.deps.engine
      .discardRestore(this.row.id)
      .catch((error) =>
        this.deps.logger.warn({ err: error, restore: this.row.id }, "removing a restore's volumes failed"),
      );
  }

  cause(error: unknown) {
    return causeOf(error, this.deps.logger, { workspace: this.workspace.id, restore: this.row.id });
  }

  /** The services whose containers the swap holds, and those it restores. */
  async services(): Promise<string[]> {
    const containers = await listContainersOfProject(this.deps.docker, composeProjectName(this.workspace.id));
    const held = containers
      .filter((container) => this.row.plan.held.includes(container.Id))
      .map((container) => container.Labels?.[LABELS.composeService] ?? container.Id);
    return [...new Set([...this.row.services, ...held])];
  }

  /** Stops each held container as `docker stop` would: its own grace period (Compose's stop_grace_period). */
  async stopHeld() {
    for (const id of this.row.plan.held) {
      await this.deps.docker.getContainer(id).stop().catch(ignoreSettled);
    }
  }

  /** Starts each held container again; one already running is fine, and one that will not start fails the step. */
  async startHeld() {
    const failures: string[] = [];
    for (const id of [...this.row.plan.held].reverse()) {
      await this.deps.docker
        .getContainer(id)
        .start()
        .catch((error: { statusCode?: number }) => {
          if (![304, 404].includes(error.statusCode ?? 0)) failures.push(id.slice(0, 12));
        });
    }
    if (failures.length > 0) {
      throw new BackupError(`The containers ${failures.join(', ')} could not be started again.`);
    }
  }
}

/**
 * The containers of the workspace that mount a volume the swap replaces, whichever service they belong to (so
 * nothing writes into a volume while it is swapped), and the restored services' own: started again after it.
 */
async function containersToHold(
  deps: RestoreDeps,
  workspace: WorkspaceRow,
  staged: StagedPart[],
  data: ServiceData[],
) {
  const volumes = new Set(staged.flatMap((part) => part.units.map((unit) => unit.live)));
  const containers = await listContainersOfProject(deps.docker, composeProjectName(workspace.id));
  const mounting = containers.filter((container) =>
    container.Mounts.some((mount) => mount.Type === 'volume' && mount.Name && volumes.has(mount.Name)),
  );
  return [...new Set([...mounting.map((container) => container.Id), ...data.map((d) => d.containerId)])];
}

/**
 * The backup's parts read in full and checked into volumes of the restore's own, while a safety backup of the
 * data as it is now is stored (in a repository of its own) and verified by reading it back: both before
 * anything live is touched. Answers the staged parts, or ends the restore (nothing changed) and answers nothing.
 */
async function prepare(
  restore: Restore,
  backup: BackupRow,
  data: ServiceData[],
): Promise<StagedPart[] | undefined> {
  const { deps, workspace, row } = restore;
  const parts = backup.parts.filter((part) => row.services.includes(part.service));
  const safetyRepo = await deps.openSafetyRepository(workspace, row.id);
  const safetyRow = await deps.repository.startBackup(
    workspace.id,
    workspace.name,
    'safety',
    deps.now(),
    `safety/${row.id}`,
  );
  await restore.step('reading', { safetyBackupId: safetyRow.id });
  const beat = setInterval(() => {
    deps.repository.beat('backup', safetyRow.id, deps.now()).catch((error) => {
      deps.logger.warn({ err: error, backup: safetyRow.id }, 'safety backup heartbeat failed');
    });
  }, 5_000);
  beat.unref();
  const staging = (async () => {
    const repo = await deps.openRepository(workspace, backup);
    const staged: StagedPart[] = [];
    for (const part of parts) {
      const service = data.find((candidate) => candidate.service === part.service)!;
      staged.push(await deps.engine.stagePart(repo, service, partResult(part), row.id));
      await restore.step(restore.row.status, { plan: { staged, held: [] } });
      restore.context.reached(`staged:${part.service}`);
    }
    return staged;
  })();
  // The safety backup's steps are the restore's, named as its.
  const safetyContext = { reached: (phase: string) => restore.context.reached(`safety:${phase}`) };
  const safety = (async () => {
    const written = await writeBackup(deps, workspace, safetyRow, safetyRepo, safetyContext, row.services);
    if (!isWritten(written)) return written;
    return verifyBackup(deps, workspace, written, 'readBack', safetyContext);
  })();
  const [staged, safe] = await Promise.allSettled([staging, safety]).finally(() => clearInterval(beat));
  if (staged.status === 'rejected') {
    const failure = staged.reason;
    const cause = restore.cause(failure);
    if (failure instanceof BackupError && failure.damaged) {
      await deps.repository.updateBackup(backup.id, { status: 'damaged', cause });
      await deps.alerts.damaged(workspace, backup, cause);
      await restore.finish(
        'failed',
        `The backup could not be read back as it was stored, so nothing was changed: ${cause}`,
      );
    } else
      await restore.finish(
        'failed',
        /nothing was (changed|restored)/.test(cause) ? cause : `${cause} Nothing was changed.`,
      );
    await restore.discard();
    return undefined;
  }
  if (safe.status === 'rejected' || safe.value.status !== 'verified') {
    const why =
      safe.status === 'rejected' ? restore.cause(safe.reason) : (safe.value.cause ?? 'no reason given');
    await restore.finish('failed', `The safety backup failed, so nothing was restored: ${why}`);
    await restore.discard();
    return undefined;
  }
  return staged.value;
}

/**
 * From the staged data to the end: the held containers stopped, the staged data swapped in, the containers
 * started and checked (the deployment health model, and each part's own check of the live data). Run from any
 * point after the containers to hold were recorded: every step can be run again.
 */
async function completeRestore(restore: Restore, backup: BackupRow | undefined) {
  const { deps, workspace } = restore;
  try {
    await restore.step('stopping');
    await deps.announceStops(workspace, await restore.services());
    await restore.stopHeld();
    await restore.step('restoring');
    await deps.engine.swapIn(restore.units);
    restore.context.reached('swapped');
    await restore.step('starting');
    await restore.startHeld();
    await restore.step('verifying');
    // The data first (each part's own check of the live service), then the app (the deployment health model).
    const data = await dataOf(deps, workspace, restore.row.services);
    for (const part of (backup?.parts ?? []).filter((p) => restore.row.services.includes(p.service))) {
      const service = data.find((candidate) => candidate.service === part.service);
      const check = service
        ? await deps.engine.checkLive(service, partResult(part))
        : { ok: false as const, reason: `${part.service} is not running` };
      if (!check.ok) {
        throw new BackupError(
          `After the restore, ${part.service} does not hold what the backup recorded: ${check.reason}`,
        );
      }
    }
    await deps.checkHealth(workspace, await restore.services());
    await restore.finish('done', null, backup);
    await restore.discard();
  } catch (error) {
    await rollBack(restore, restore.cause(error));
  }
}

/** Puts the live data back as it was, starts and checks the services; says so, whatever comes of it. */
async function rollBack(restore: Restore, cause: string) {
  const { deps, workspace } = restore;
  try {
    await restore.step('rolling_back', { cause });
    await deps.announceStops(workspace, await restore.services());
    await restore.stopHeld();
    await deps.engine.swapBack(restore.units);
    await restore.startHeld();
    const services = await restore.services();
    const health = await deps.checkHealth(workspace, services, 'the data as it was was put back').then(
      () => ` ${services.join(', ')} passed the health check again.`,
      (error: unknown) => ` ${restore.cause(error)}`,
    );
    await restore.finish(
      'rolled_back',
      `${cause} The data as it was just before the restore was put back.${health}`,
    );
    await restore.discard();
  } catch (rollbackError) {
    // The restore's volumes stay: the live data may be in one of them. The safety backup holds it too.
    const again = restore.cause(rollbackError);
    await restore.step('rolling_back', { plan: { ...restore.row.plan, keptForOperator: true } });
    await restore.finish(
      'failed',
      `${cause} Putting the data as it was back failed too: ${again} The safety backup (${restore.row.safetyBackupId}) holds it; Slipway keeps the restore's volumes for an operator.`,
    );
  }
}

async function loadRestore(deps: RestoreDeps, row: RestoreRow, context: RunContext) {
  const workspace = await deps.workspaces.findById(row.workspaceId);
  if (!workspace) {
    await deps.repository.updateRestore(row.id, {
      status: 'failed',
      cause: 'The workspace no longer exists.',
      finishedAt: deps.now(),
    });
    await deps.engine.discardRestore(row.id);
    return undefined;
  }
  const backup = await deps.repository.findBackup(row.workspaceId, row.backupId);
  return { restore: new Restore(deps, workspace, row, context), backup };
}

/**
 * Restores as durable runs: read and checked, a safety backup stored and verified → stopped → swapped →
 * started → checked → done; a failure after the swap puts the data as it was back. A restore taken over after a
 * crash goes on from where its row says it was: nothing changed yet → ended, saying so; past the stop → finished
 * (or rolled back if it does not check out); rolling back → rolled back. Every container it stopped is started.
 */
export function restoreKind(deps: RestoreDeps): DurableKind<'restore.run', RestoreRow> {
  const { repository } = deps;
  return {
    job: 'restore.run',
    claim: (id, now, staleBefore) => repository.claimRestore(id, now, staleBefore),
    beat: (id, now) => repository.beat('restore', id, now),
    stale: (before) => repository.staleRestores(before),
    ended: async (id) => !(await repository.restoreActive(id)),

    async run(row, context) {
      const loaded = await loadRestore(deps, row, context);
      if (!loaded) return;
      const { restore, backup } = loaded;
      try {
        if (backup?.status !== 'verified') {
          await restore.finish('failed', 'Only a Verified backup can be restored: this one no longer is.');
          return;
        }
        const data = await dataOf(deps, restore.workspace, row.services);
        const missing = row.services.filter((service) => !data.some((d) => d.service === service));
        if (missing.length > 0) {
          await restore.finish(
            'failed',
            `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not running with its volumes in ${restore.workspace.name}: nothing was changed.`,
          );
          return;
        }
        const staged = await prepare(restore, backup, data);
        if (!staged) return;
        const held = await containersToHold(deps, restore.workspace, staged, data);
        // The containers to start again are on the row before any of them is stopped.
        await restore.step('stopping', { plan: { staged, held } });
      } catch (error) {
        await restore.finish('failed', `${restore.cause(error)} Nothing was changed.`);
        await restore.discard();
        return;
      }
      await completeRestore(restore, backup);
    },

    async resume(row, context) {
      const loaded = await loadRestore(deps, row, context);
      if (!loaded) return;
      const { restore, backup } = loaded;
      deps.logger.warn(
        { workspace: row.workspaceId, restore: row.id, status: row.status },
        'taking over a restore',
      );
      if (row.status === 'reading' || row.status === 'safety_backup' || restore.units.length === 0) {
        // Nothing live was touched (or, for a restore an older Slipway started, nothing is known of it).
        await restore.startHeld().catch(() => undefined);
        await failSafetyBackup(deps, restore);
        await restore.finish(
          'failed',
          row.plan.staged.length === 0 && row.status !== 'reading' && row.status !== 'safety_backup'
            ? RESTARTED_DURING_RESTORE
            : RESTARTED_BEFORE_CHANGE,
        );
        await restore.discard();
        return;
      }
      if (row.status === 'rolling_back') await rollBack(restore, row.cause ?? RESTARTED_DURING_RESTORE);
      else await completeRestore(restore, backup);
    },
  };
}

/** A safety backup a crash interrupted: ended Failed, what it wrote removed with its repository's snapshots. */
async function failSafetyBackup(deps: RestoreDeps, restore: Restore) {
  const id = restore.row.safetyBackupId;
  const safety = id ? await deps.repository.backupById(id) : undefined;
  if (!safety || !['running', 'verifying'].includes(safety.status)) return;
  const repo = await deps.openSafetyRepository(restore.workspace, restore.row.id).catch(() => undefined);
  if (repo) {
    await repo.unlockStale().catch(() => undefined);
    const written = await repo.listSnapshots().catch(() => []);
    await repo
      .removeSnapshots(written.map((snapshot) => snapshot.id))
      .catch((error) =>
        deps.logger.warn(
          { err: error, backup: safety.id },
          "removing an interrupted safety backup's snapshots failed",
        ),
      );
  }
  await deps.repository.updateBackup(safety.id, {
    status: 'failed',
    cause: 'Slipway restarted during this safety backup.',
    finishedAt: deps.now(),
  });
}

export type { RestorePlan };
