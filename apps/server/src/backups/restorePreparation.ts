import { isWritten, partResult, verifyBackup, writeBackup } from './backupRun.js';
import type { BackupRow } from './backupsRepository.js';
import { BackupError, type ServiceData, type StagedPart } from './engine/backupEngine.js';
import type { Restore, RestoreDeps } from './restoreRecord.js';

/**
 * The backup's parts read in full and checked into volumes of the restore's own, while a safety backup of the
 * data as it is now is stored (in a repository of its own) and verified by reading it back: both before
 * anything live is touched. Answers the staged parts, or ends the restore (nothing changed) and answers nothing.
 */
export async function prepare(
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

/** A safety backup a crash interrupted: ended Failed, what it wrote removed with its repository's snapshots. */
export async function failSafetyBackup(deps: RestoreDeps, restore: Restore) {
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
