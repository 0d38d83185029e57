import { previewWorkspaceName } from '@slipway/contract';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, type DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { DeploymentService } from '../deployments/deploymentService.js';
import { expectedShaOf } from '../deployments/expectedCommit.js';
import { DomainError } from '../domain/errors.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { pendingState } from './previewEvents.js';
import type { PreviewReporter } from './previewReporter.js';
import type { PreviewRow, PreviewsRepository } from './previewsRepository.js';

export interface PreviewDeployerDeps {
  previews: PreviewsRepository;
  workspaces: Pick<WorkspacesRepository, 'findById' | 'findByName'>;
  deployments: Pick<DeploymentService, 'deploy' | 'cancelById' | 'reloadDeployment'>;
  repository: Pick<DeploymentRepository, 'activeForWorkspace'>;
  /** The one owner of a workspace's removal (workspaces/workspaceLifecycle.ts), false when there is none. */
  removeWorkspace(userId: string, name: string): Promise<void>;
  reporter: PreviewReporter;
  logger: Logger;
}

const slotsCause = (max: number) =>
  `${max} preview${max === 1 ? ' is' : 's are'} running, the most at once for this workspace: this one starts when one of them is removed`;

/**
 * Moves each preview along, one step per check: a closed one is removed (its deployment cancelled first), a
 * pending head commit is deployed when approved (if needed) and a slot is free — a deployment of an older commit
 * still running is cancelled first — and a finished deployment makes the preview Live or Failed with its cause.
 */
export function createPreviewDeployer(deps: PreviewDeployerDeps) {
  const { previews, logger } = deps;

  /**
   * Previews made Live while their deployment was still finishing (pruning older images, which takes seconds and
   * changes nothing that serves): looked at until it has ended, so one that fails after all says so.
   */
  const servingEarly = new Set<string>();

  async function remove(preview: PreviewRow, userId: string, name: string) {
    servingEarly.delete(preview.id);
    await deps.removeWorkspace(userId, name);
    await previews.delete(preview.id);
    await deps.reporter.removed(preview);
    logger.info({ previewId: preview.id, number: preview.number }, 'preview removed');
  }

  async function startPending(preview: PreviewRow, sha: string) {
    const parent = (await deps.workspaces.findById(preview.parentId))!;
    const settings = await previews.settings(parent.id);
    if ((await previews.countRunning(parent.id, preview.id)) >= settings.max_running) {
      const cause = slotsCause(settings.max_running);
      if (preview.state !== 'waiting_for_slot' || preview.cause !== cause) {
        await previews.update(preview.id, { state: 'waiting_for_slot', cause });
      }
      return;
    }
    try {
      const started = await deps.deployments.deploy({
        kind: 'preview',
        parent,
        preview: {
          name: previewWorkspaceName(parent.name, preview.number),
          ref: preview.headRef,
          sha,
          vmSize: settings.vm_size,
        },
      });
      await previews.update(preview.id, {
        workspaceId: started.workspaceId,
        deploymentId: started.deploymentId,
        pendingSha: null,
        state: 'deploying',
        cause: null,
      });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'deployment_in_progress') return;
      const cause = error instanceof DomainError ? error.message : 'The preview could not be deployed';
      if (!(error instanceof DomainError))
        logger.warn({ err: error, previewId: preview.id }, 'preview deployment failed to start');
      await previews.update(preview.id, { pendingSha: null, state: 'failed', cause });
    }
  }

  /**
   * A preview is Live as soon as its deployment serves — post-deployment has recorded its URLs on the row
   * (`metadata.service_urls`, written once the workspace is live) — not when pruning ends; Failed with its cause.
   */
  async function settle(preview: PreviewRow) {
    const row = preview.deploymentId
      ? await deps.deployments.reloadDeployment(preview.deploymentId)
      : undefined;
    if (row && ACTIVE_STATUSES.includes(row.status)) {
      if (preview.state === 'deploying' && row.metadata.service_urls !== undefined) {
        servingEarly.add(preview.id);
        await previews.update(preview.id, { state: 'live', cause: null });
      }
      return;
    }
    servingEarly.delete(preview.id);
    if (row?.status === 'completed') {
      if (preview.state !== 'live') await previews.update(preview.id, { state: 'live', cause: null });
    } else
      await previews.update(preview.id, {
        state: 'failed',
        cause: row?.error ?? 'The deployment ended without a result',
      });
  }

  async function advance(preview: PreviewRow) {
    const parent = await deps.workspaces.findById(preview.parentId);
    if (!parent) return previews.delete(preview.id);
    const name = previewWorkspaceName(parent.name, preview.number);
    const active = await deps.repository.activeForWorkspace(parent.userId, name);
    if (preview.state === 'removing') {
      if (active) await deps.deployments.cancelById(active.id);
      else await remove(preview, parent.userId, name);
      return;
    }
    const sha = preview.pendingSha;
    if (sha && pendingState(preview, sha) === 'deploying') {
      // A newer push makes an older commit's deployment moot: cancelled, and this one starts once it has ended.
      if (active) {
        if (expectedShaOf(active) !== sha) await deps.deployments.cancelById(active.id);
        return;
      }
      await startPending(preview, sha);
    } else if ((preview.state === 'deploying' || servingEarly.has(preview.id)) && !sha) {
      await settle(preview);
    }
  }

  /** Nothing to move: no commit pending, no deployment to settle, no removal (the loop looks several times a second). */
  const atRest = (preview: PreviewRow) =>
    !preview.pendingSha &&
    preview.state !== 'deploying' &&
    preview.state !== 'removing' &&
    !servingEarly.has(preview.id);

  /** One pass over every preview; a preview whose step fails is logged and tried again next time. */
  /** Moves every preview that is not at rest along; answers whether any was (it may need another look soon). */
  async function check(): Promise<boolean> {
    let moving = false;
    for (const preview of await previews.listAll()) {
      if (atRest(preview) && deps.reporter.upToDate(preview)) continue;
      moving = true;
      try {
        await advance(preview);
        const current = await previews.findById(preview.id);
        if (current) await deps.reporter.report(current);
      } catch (error) {
        logger.warn({ err: error, previewId: preview.id }, 'moving a preview along failed');
      }
    }
    return moving;
  }

  return { check };
}

export type PreviewDeployer = ReturnType<typeof createPreviewDeployer>;
