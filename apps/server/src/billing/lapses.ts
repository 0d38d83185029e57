import type { SubscriptionStatus } from '@slipway/contract';
import type { Mailer, MailMessage, MailResult } from '../infra/mail/mailer.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { type BillingRepository, metadataOf, type SubscriptionRow } from './billingRepository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface LapsedWorkspace {
  userId: string;
  workspaceId: string;
  workspaceName: string;
  subscriptionId: string;
  status: Extract<SubscriptionStatus, 'cancelled' | 'past_due'>;
  /** When the subscription stopped paying for the workspace. */
  lapsedAt: Date;
  planName: string;
}

/** When a subscription stopped covering its workspace: the end of what was paid, or when payment failed. */
function lapsedAt(row: SubscriptionRow): Date {
  const metadata = metadataOf(row);
  if (row.status === 'cancelled') {
    const paidThrough = metadata.cancellation?.paid_through;
    return paidThrough ? new Date(paidThrough) : (row.cancelledAt ?? row.updatedAt);
  }
  return metadata.past_due_since ? new Date(metadata.past_due_since) : row.updatedAt;
}

export function lapseEmail(
  to: string,
  lapse: Pick<LapsedWorkspace, 'workspaceName' | 'status' | 'planName'>,
  publicUrl: string,
): MailMessage {
  const why =
    lapse.status === 'cancelled'
      ? `its ${lapse.planName} subscription was cancelled`
      : `the payment for its ${lapse.planName} subscription failed and was not settled`;
  return {
    to,
    subject: `Slipway: workspace ${lapse.workspaceName} has been stopped`,
    text: [
      'Hello,',
      '',
      `We stopped your workspace "${lapse.workspaceName}" because ${why}, and the grace period has ended.`,
      'Its containers are stopped; its configuration, environment variables and volumes are kept.',
      '',
      `To run it again, start a new subscription and deploy: ${publicUrl}/repository-picker`,
      `Your subscriptions: ${publicUrl}/subscriptions`,
      '',
      '— Slipway',
    ].join('\n'),
  };
}

/**
 * The lapse sweeper's two halves: find workspaces whose subscription is cancelled or past due beyond the
 * grace period (the deployment engine stops them), then record each stop and tell the owner by email.
 */
export function createLapses(deps: {
  repo: BillingRepository;
  workspaces: Pick<WorkspacesRepository, 'findByName'>;
  users: UsersRepository;
  mailer: Mailer;
  publicUrl: string;
  /** Free beta charges nothing, so nothing lapses. */
  enforced: boolean;
}) {
  return {
    async findLapsedWorkspaces(graceDays: number, now = new Date()): Promise<LapsedWorkspace[]> {
      if (!deps.enforced) return [];
      const lapsed = await deps.repo.listInStatuses(['cancelled', 'past_due']);
      const live = await deps.repo.listInStatuses(['active', 'trialing']);
      const stillPaid = new Set(live.map((row) => `${row.userId}/${row.workspaceName}`));
      const found = new Map<string, LapsedWorkspace>();
      for (const row of lapsed) {
        const key = `${row.userId}/${row.workspaceName}`;
        if (stillPaid.has(key) || found.has(key) || metadataOf(row).lapse_handled_at) continue;
        const since = lapsedAt(row);
        if (since.getTime() + graceDays * DAY_MS > now.getTime()) continue;
        const workspace = await deps.workspaces.findByName(row.userId, row.workspaceName);
        if (!workspace) continue;
        found.set(key, {
          userId: row.userId,
          workspaceId: workspace.id,
          workspaceName: row.workspaceName,
          subscriptionId: row.id,
          status: row.status as LapsedWorkspace['status'],
          lapsedAt: since,
          planName: row.planName,
        });
      }
      return [...found.values()];
    },

    /** Called by the engine once it has stopped the workspace: records it (so it is found once) and emails. */
    async confirmWorkspaceStopped(lapse: LapsedWorkspace): Promise<MailResult> {
      const row = await deps.repo.findById(lapse.subscriptionId);
      if (!row) return { sent: false, error: 'subscription not found' };
      if (metadataOf(row).lapse_handled_at) return { sent: false, error: 'already handled' };
      await deps.repo.update(row.id, {
        metadata: { ...metadataOf(row), lapse_handled_at: new Date().toISOString() },
      });
      const user = await deps.users.findById(row.userId);
      if (!user?.email) return { sent: false, error: 'the user has no email address' };
      return deps.mailer.send(lapseEmail(user.email, lapse, deps.publicUrl));
    },
  };
}
