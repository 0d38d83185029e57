import type Docker from 'dockerode';
import { BackupError, type ResticRepository, type ServiceData } from '../infra/backup/backupEngine.js';
import type { StoredBackupPart } from '../infra/db/backupTables.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listContainersOfProject } from '../infra/docker/projectResources.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BackupAlerts } from './backupAlerts.js';
import {
  causeOf,
  dataOf,
  heartbeat,
  isWritten,
  partResult,
  type RunDeps,
  storedPart,
  verifyBackup,
  type WrittenBackup,
  writeBackup,
} from './backupRun.js';
import type { BackupRow, RestoreRow } from './backupsRepository.js';

export interface RestoreDeps extends RunDeps {
  docker: Docker;
  alerts: BackupAlerts;
  /**
   * The deployment health model over these services of the workspace; throws a BackupError saying what failed,
   * `After {after}, …` ("the restore" by default).
   */
  checkHealth(workspace: WorkspaceRow, services: string[], after?: string): Promise<void>;
}

/** Seconds a service has to stop before it is killed. */
const STOP_SECONDS = 30;

/**
 * The containers that mount a volume a files part is about to overwrite, whichever service they belong to, so
 * nothing writes into a volume while it is put back: those running (or restarting) are stopped; those and the
 * restored services' own containers are started after. A database's dump is loaded into the running service.
 */
async function containersAround(
  docker: Docker,
  workspace: WorkspaceRow,
  data: ServiceData[],
  parts: StoredBackupPart[],
) {
  const files = parts.filter((part) => part.method === 'files');
  const volumes = new Set(
    files
      .flatMap((part) => data.find((d) => d.service === part.service)?.volumes ?? [])
      .map((m) => m.dockerVolume),
  );
  if (volumes.size === 0) return { toStop: [], toStart: [] };
  const containers = await listContainersOfProject(docker, composeProjectName(workspace.id));
  const mounting = containers.filter((container) =>
    container.Mounts.some((mount) => mount.Type === 'volume' && mount.Name && volumes.has(mount.Name)),
  );
  const restoredIds = new Set(files.map((part) => data.find((d) => d.service === part.service)?.containerId));
  const toStop = mounting.filter(
    (container) => container.State === 'running' || container.State === 'restarting',
  );
  return {
    toStop,
    toStart: mounting.filter((container) => toStop.includes(container) || restoredIds.has(container.Id)),
  };
}

/**
 * Puts parts back: the files parts' containers stopped around it, and started again whatever happens. `data`
 * is the services as they ran when the restore began: a service that crashed since is still put back.
 */
async function putBack(
  deps: RestoreDeps,
  repo: ResticRepository,
  workspace: WorkspaceRow,
  data: ServiceData[],
  parts: StoredBackupPart[],
  step: (status: RestoreRow['status']) => Promise<unknown>,
): Promise<string[]> {
  for (const part of parts) {
    if (!data.some((d) => d.service === part.service)) {
      throw new BackupError(
        `${part.service} is not running with its volumes in ${workspace.name}: it cannot be restored.`,
      );
    }
  }
  await step('stopping');
  const { toStop, toStart } = await containersAround(deps.docker, workspace, data, parts);
  try {
    for (const container of toStop) await deps.docker.getContainer(container.Id).stop({ t: STOP_SECONDS });
    await step('restoring');
    for (const part of parts) {
      await deps.engine.restorePart(repo, data.find((d) => d.service === part.service)!, partResult(part));
    }
  } finally {
    await step('starting');
    await startAll(deps, toStart);
  }
  return [...new Set([...parts.map((part) => part.service), ...toStart.map(serviceOf)])];
}

const serviceOf = (container: Docker.ContainerInfo) =>
  container.Labels?.[LABELS.composeService] ?? container.Id;

/** Starts each container again; one already running is fine, and one that will not start fails the step. */
async function startAll(deps: RestoreDeps, containers: Docker.ContainerInfo[]) {
  const failures: string[] = [];
  for (const container of [...containers].reverse()) {
    await deps.docker
      .getContainer(container.Id)
      .start()
      .catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 304) failures.push(serviceOf(container));
      });
  }
  if (failures.length > 0) throw new BackupError(`${failures.join(', ')} could not be started again.`);
}

/**
 * A restore: a safety backup of the affected services written (restic's snapshots stored, so the data as it was
 * can be put back) → their containers stopped (files) → each part put back (files restored, dumps loaded into
 * the running database) → started → checked with the deployment health model → done. Any failure after the
 * safety backup puts the safety backup back at once (status rolled_back, with the cause); the services are
 * always started again. The safety backup is verified afterwards, like any backup (Verifying → Verified or
 * Failed): verifying it first kept the workspace waiting for a check its data never depended on.
 */
export async function runRestore(
  deps: RestoreDeps,
  workspace: WorkspaceRow,
  restore: RestoreRow,
  backup: BackupRow,
): Promise<RestoreRow> {
  const stopBeating = heartbeat(deps, 'restore', restore.id);
  let stopSafetyBeating = () => {};
  let safety: WrittenBackup | undefined;
  const step = (status: RestoreRow['status'], values: Partial<RestoreRow> = {}) =>
    deps.repository.updateRestore(restore.id, { ...values, status, heartbeatAt: deps.now() });
  const finish = (status: RestoreRow['status'], cause: string | null) =>
    step(status, { cause, finishedAt: deps.now() });
  const parts = backup.parts.filter((part) => restore.services.includes(part.service));
  try {
    // The services as they run now: the restore and, if it fails, the safety backup's return act on these.
    const data = await dataOf(deps, workspace, restore.services);
    const safetyRow = await deps.repository.startBackup(workspace.id, workspace.name, 'safety', deps.now());
    stopSafetyBeating = heartbeat(deps, 'backup', safetyRow.id);
    await step('safety_backup', { safetyBackupId: safetyRow.id });
    const written = await writeBackup(deps, workspace, safetyRow, restore.services);
    if (!isWritten(written)) {
      const cause = `The safety backup failed, so nothing was restored: ${written.cause ?? 'no reason given'}`;
      await deps.alerts.restoreFailed(workspace, restore.id, cause);
      return await finish('failed', cause);
    }
    safety = written;
    try {
      const affected = await putBack(deps, written.repo, workspace, data, parts, (status) => step(status));
      await step('verifying');
      await deps.checkHealth(workspace, affected);
      const done = await finish('done', null);
      await deps.alerts.restored(workspace, restore.id, backup.startedAt, restore.services);
      return done;
    } catch (error) {
      const cause = causeOf(error, deps.logger, { workspace: workspace.id, restore: restore.id });
      try {
        const safetyParts = written.parts.map((part) => storedPart(part));
        const putBackServices = await putBack(
          deps,
          written.repo,
          workspace,
          data,
          safetyParts,
          async () => {},
        );
        // The data is as it was; whether the app runs on it again is checked the same way, and said either way.
        const health = await deps
          .checkHealth(workspace, putBackServices, 'the safety backup was put back')
          .then(
            () => ` ${putBackServices.join(', ')} passed the health check again.`,
            (error: unknown) =>
              ` ${causeOf(error, deps.logger, { workspace: workspace.id, restore: restore.id })}`,
          );
        const rolledBack = `${cause} The safety backup taken just before was put back.${health}`;
        await deps.alerts.restoreFailed(workspace, restore.id, rolledBack);
        return await finish('rolled_back', rolledBack);
      } catch (rollbackError) {
        const again = causeOf(rollbackError, deps.logger, { workspace: workspace.id, restore: restore.id });
        const failed = `${cause} Putting the safety backup (${safetyRow.id}) back failed too: ${again}`;
        await deps.alerts.restoreFailed(workspace, restore.id, failed);
        return await finish('failed', failed);
      }
    }
  } catch (error) {
    const cause = causeOf(error, deps.logger, { workspace: workspace.id, restore: restore.id });
    return finish('failed', cause);
  } finally {
    stopBeating();
    if (safety) await verifySafety(deps, workspace, safety).finally(stopSafetyBeating);
    else stopSafetyBeating();
  }
}

/** The safety backup's check, once the restore has finished; a failure stays on its row (and in the log). */
async function verifySafety(deps: RestoreDeps, workspace: WorkspaceRow, safety: WrittenBackup) {
  const row = await verifyBackup(deps, workspace, safety).catch((error: unknown) => {
    deps.logger.error({ err: error, workspace: workspace.id, backup: safety.row.id }, 'verifying failed');
    return undefined;
  });
  if (row?.status === 'failed') {
    deps.logger.warn({ workspace: workspace.id, backup: row.id, cause: row.cause }, 'a safety backup failed');
  }
}
