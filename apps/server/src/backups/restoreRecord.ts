import type Docker from 'dockerode';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listContainersOfProject } from '../infra/docker/projectResources.js';
import type { ResticRepository } from '../infra/restic/resticRepository.js';
import type { RunContext } from '../jobs/durableRuns.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { causeOf, type RunDeps, STOPS_BOUND_MS } from './backupRun.js';
import type { BackupRow, RestoreRow } from './backupsRepository.js';
import { BackupError, type ServiceData, type StagedPart } from './engine/backupEngine.js';

export interface RestoreDeps extends RunDeps {
  docker: Docker;
  /**
   * The deployment health model over these services of the workspace; throws a BackupError saying what failed,
   * `After {after}, …` ("the restore" by default).
   */
  checkHealth(workspace: WorkspaceRow, services: string[], after?: string): Promise<void>;
  /** A restore's safety backup's repository: one of its own, so that its data never shares another's packs. */
  openSafetyRepository(workspace: WorkspaceRow, restoreId: string): Promise<ResticRepository>;
  /** Once a restore has ended: older safety backups, and their repositories, go. */
  afterRestore(workspace: WorkspaceRow): Promise<void>;
}

const ignoreSettled = (error: { statusCode?: number }) => {
  // 304: already in the state asked for; 404: removed meanwhile.
  if (![304, 404].includes(error.statusCode ?? 0)) throw error;
};

/** One restore's work, with its row kept up to date: what a takeover after a crash reads. */
export class Restore {
  /** The announcement of the services it stops, ended with the restore. */
  private stops: { end(): Promise<void> } | undefined;

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
  /** Announces the stops of the services the swap holds (once), before any of them is stopped. */
  async announceStops() {
    this.stops ??= await this.deps.announceStops(
      this.workspace,
      await this.services(),
      'restore',
      STOPS_BOUND_MS,
    );
  }

  async finish(status: 'done' | 'failed' | 'rolled_back', cause: string | null, backup?: BackupRow) {
    await this.stops?.end();
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
export async function containersToHold(
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
