import type { DurableKind, RunContext } from '../jobs/durableRuns.js';
import { dataOf, partResult } from './backupRun.js';
import type { BackupRow, RestoreRow } from './backupsRepository.js';
import { BackupError } from './engine/backupEngine.js';
import { failSafetyBackup, prepare } from './restorePreparation.js';
import { containersToHold, Restore, type RestoreDeps } from './restoreRecord.js';

export const RESTARTED_BEFORE_CHANGE =
  'Slipway restarted while this restore was reading the backup: nothing was changed. Start the restore again.';
export const RESTARTED_DURING_RESTORE =
  'Slipway restarted during this restore: check the services; its safety backup holds the data as it was before.';

/**
 * From the staged data to the end: the held containers stopped, the staged data swapped in, the containers
 * started and checked (the deployment health model, and each part's own check of the live data). Run from any
 * point after the containers to hold were recorded: every step can be run again.
 */
async function completeRestore(restore: Restore, backup: BackupRow | undefined) {
  const { deps, workspace } = restore;
  try {
    await restore.step('stopping');
    await restore.announceStops();
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
    await restore.announceStops();
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
