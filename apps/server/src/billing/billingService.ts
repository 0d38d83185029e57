import { createHash, randomUUID } from 'node:crypto';
import {
  type BillingMode,
  CANCELLABLE_STATUSES,
  type CancelSubscriptionRequest,
  type CancelSubscriptionResponse,
  type CreateSubscriptionRequest,
  type CreateSubscriptionResponse,
  FREE_BETA_TRIAL_DAYS,
  type Invoice,
  planByCode,
  planCodeFor,
  type SubscriptionDetail,
  type SubscriptionInvoices,
  type SubscriptionStatus,
  type SubscriptionSummary,
} from '@slipway/contract';
import type { Logger } from 'pino';
import { DomainError, invalid } from '../domain/errors.js';
import type { UserRow } from '../users/usersRepository.js';
import { type BillingRepository, metadataOf, type SubscriptionRow } from './billingRepository.js';
import { createPaypalSubscriptions, type PaypalBilling } from './paypalSubscriptions.js';
import {
  invoicesMessage,
  presentCreated,
  presentDetail,
  presentInvoice,
  presentSummary,
} from './presenter.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const USABLE: readonly SubscriptionStatus[] = ['active', 'trialing'];

export interface BillingServiceDeps {
  repo: BillingRepository;
  publicUrl: string;
  logger: Logger;
  /** Present in `paypal` mode; absent means `free-beta`. */
  paypal: PaypalBilling | undefined;
}

const subscriptionNotFound = () => new DomainError('not_found', 'Subscription not found');

/** The same request always hashes the same, so a reused idempotency key with other content is caught. */
function fingerprint(workspaceName: string, request: CreateSubscriptionRequest): string {
  const { plan_code, metadata } = request;
  const canonical = [
    workspaceName,
    plan_code,
    metadata.repo_owner,
    metadata.repo_name,
    metadata.branch,
    metadata.vm_size,
    // One node hashes as before nodes were counted: a request repeated across the change is still the same.
    ...(metadata.nodes === 1 ? [] : [metadata.nodes]),
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

/** "3 nodes of the 1 GB RAM VM (…)" — or the plan's name alone for one node. */
const nodesOf = (nodes: number, planName: string) =>
  nodes === 1 ? planName : `${nodes} nodes of the ${planName}`;

/**
 * Subscriptions per workspace and VM size, each for a number of nodes (VMs of that size; PayPal's quantity, each
 * at the plan's price). In `paypal` mode a subscription starts `pending` with a PayPal
 * approval link and becomes `active` by webhook (or by asking PayPal); in `free-beta` it starts `trialing`.
 */
export function createBillingService(deps: BillingServiceDeps) {
  const mode: BillingMode = deps.paypal ? 'paypal' : 'free-beta';
  const paypal = createPaypalSubscriptions(deps);

  async function owned(userId: string, id: string): Promise<SubscriptionRow> {
    const row = await deps.repo.findOwned(userId, id);
    if (!row) throw subscriptionNotFound();
    return row;
  }

  function cancelAnswer(row: SubscriptionRow): CancelSubscriptionResponse {
    return {
      success: true,
      subscription_id: row.id,
      status: row.status as SubscriptionStatus,
      cancelled_at: row.cancelledAt?.toISOString() ?? null,
      message: 'Subscription cancelled',
    };
  }

  return {
    mode,

    async create(
      user: UserRow,
      workspaceName: string,
      request: CreateSubscriptionRequest,
    ): Promise<CreateSubscriptionResponse> {
      const plan = planByCode(request.plan_code);
      if (!plan) throw invalid(`Unknown plan: ${request.plan_code}`);
      if (planCodeFor(request.metadata.vm_size) !== plan.code) {
        throw invalid(
          `The plan ${plan.code} does not match the VM size ${request.metadata.vm_size} (plan ${planCodeFor(request.metadata.vm_size)})`,
        );
      }
      const print = fingerprint(workspaceName, request);
      const nodes = request.metadata.nodes;
      // A live subscription for this workspace and plan already pays for it: redeploying must not bill twice.
      const [live] = await deps.repo.findForWorkspace(user.id, workspaceName, plan.code, USABLE);
      if (live && live.nodes < nodes) {
        if (mode === 'free-beta') {
          // Nothing is charged in the beta: the trial covers the nodes asked for.
          const grown = await deps.repo.update(live.id, { nodes });
          return presentCreated(grown ?? live);
        }
        // Two PayPal subscriptions for one workspace would both be charged: one is cancelled first.
        throw new DomainError(
          'conflict',
          `The subscription of ${workspaceName} pays for ${live.nodes === 1 ? '1 node' : `${live.nodes} nodes`}. Cancel it under Subscriptions, then subscribe again for ${nodes} nodes.`,
        );
      }
      const now = new Date();
      const { row } = live
        ? { row: live }
        : await deps.repo.insertOnce({
            id: randomUUID(),
            userId: user.id,
            workspaceName,
            planCode: plan.code,
            planName: plan.name,
            vmSize: request.metadata.vm_size,
            nodes,
            status: mode === 'paypal' ? 'pending' : 'trialing',
            provider: mode,
            idempotencyKey: request.idempotency_key,
            trialEnd: mode === 'paypal' ? null : new Date(now.getTime() + FREE_BETA_TRIAL_DAYS * DAY_MS),
            metadata: {
              repo_owner: request.metadata.repo_owner,
              repo_name: request.metadata.repo_name,
              branch: request.metadata.branch,
              request_fingerprint: print,
            },
          });
      if (row !== live && metadataOf(row).request_fingerprint !== print) {
        throw new DomainError(
          'conflict',
          'This idempotency key was already used for a different subscription request. Start again with a new key.',
        );
      }
      return presentCreated(await paypal.ensureCheckout(row, user));
    },

    async list(userId: string): Promise<SubscriptionSummary[]> {
      const rows = await deps.repo.listForUser(userId);
      // A PayPal attempt that never reached PayPal is not a subscription yet.
      return rows
        .filter((row) => row.provider !== 'paypal' || row.providerSubscriptionId)
        .map(presentSummary);
    },

    async get(userId: string, id: string): Promise<SubscriptionDetail> {
      return presentDetail(await paypal.refreshPending(await owned(userId, id)));
    },

    async cancel(
      userId: string,
      id: string,
      request: CancelSubscriptionRequest,
    ): Promise<CancelSubscriptionResponse> {
      const row = await owned(userId, id);
      const previous = metadataOf(row).cancellation;
      const key = request.idempotency_key ?? null;
      // The same cancel request again answers as the first did, without acting twice.
      if (row.status === 'cancelled' && key && previous?.idempotency_key === key) return cancelAnswer(row);
      if (!CANCELLABLE_STATUSES.includes(row.status as SubscriptionStatus)) {
        throw new DomainError(
          'conflict',
          row.status === 'cancelled'
            ? 'This subscription is already cancelled.'
            : `Only trialing or active subscriptions can be cancelled; this one is ${row.status}.`,
        );
      }
      paypal.assertCancellable(row);
      const now = new Date();
      const paidThrough =
        !request.cancel_immediately && row.nextRenewal && row.nextRenewal > now
          ? row.nextRenewal.toISOString()
          : null;
      const reason = request.reason || 'Cancelled by the customer';
      // Claimed by a conditional update: of two concurrent cancels, exactly one goes on to PayPal.
      const cancelled = await deps.repo.update(
        row.id,
        {
          status: 'cancelled',
          cancelledAt: now,
          metadata: {
            ...metadataOf(row),
            cancellation: {
              idempotency_key: key,
              reason,
              immediately: request.cancel_immediately,
              paid_through: paidThrough,
            },
          },
        },
        CANCELLABLE_STATUSES,
      );
      if (!cancelled) {
        const current = await deps.repo.findById(row.id);
        if (
          current?.status === 'cancelled' &&
          key &&
          metadataOf(current).cancellation?.idempotency_key === key
        ) {
          return cancelAnswer(current);
        }
        throw new DomainError('conflict', 'This subscription is already cancelled.');
      }
      if (!(await paypal.cancel(row, reason))) {
        await deps.repo.update(row.id, {
          status: row.status,
          cancelledAt: row.cancelledAt,
          metadata: row.metadata,
        });
        throw new DomainError(
          'upstream_failed',
          'PayPal could not cancel the subscription, so nothing was changed. Please try again.',
        );
      }
      return cancelAnswer(cancelled);
    },

    async invoices(userId: string): Promise<Invoice[]> {
      return (await deps.repo.invoicesForUser(userId)).map(presentInvoice);
    },

    async subscriptionInvoices(userId: string, id: string): Promise<SubscriptionInvoices> {
      const row = await paypal.refreshPending(await owned(userId, id));
      const invoices = (await deps.repo.invoicesForSubscription(row.id)).map(presentInvoice);
      return {
        is_trial: row.status === 'trialing',
        message: invoicesMessage(row, invoices.length),
        trial_end_date: row.trialEnd?.toISOString() ?? null,
        subscription_status: row.status as SubscriptionStatus,
        invoices,
      };
    },

    /**
     * Called by the deployment engine before it starts, and before a workspace's node count grows. In `paypal`
     * mode the workspace needs an active or trialing subscription for the VM size's plan paying for at least
     * `nodes` nodes; free beta needs none. Answers the subscription that pays.
     */
    async assertCanDeploy(
      userId: string,
      workspaceName: string,
      vmSize: string,
      subscriptionId?: string | null,
      nodes = 1,
    ): Promise<{ subscriptionId: string | null }> {
      const planCode = planCodeFor(vmSize);
      const named = subscriptionId ? await deps.repo.findOwned(userId, subscriptionId) : undefined;
      const matches = named && named.workspaceName === workspaceName && named.planCode === planCode;
      if (mode === 'free-beta') return { subscriptionId: matches ? named.id : null };
      const candidates = (
        matches
          ? [named]
          : await deps.repo.findForWorkspace(userId, workspaceName, planCode, [...USABLE, 'pending'])
      ).filter((candidate) => candidate.nodes >= nodes);
      for (const candidate of candidates) {
        const row = await paypal.refreshPending(candidate);
        if (USABLE.includes(row.status as SubscriptionStatus)) return { subscriptionId: row.id };
      }
      const plan = planByCode(planCode);
      const why =
        matches && named.nodes < nodes
          ? ` The subscription pays for ${named.nodes === 1 ? '1 node' : `${named.nodes} nodes`}.`
          : matches
            ? ` The subscription is ${named.status}.`
            : '';
      throw new DomainError(
        'payment_required',
        `Deploying ${workspaceName} on ${nodesOf(nodes, plan?.name ?? vmSize)} needs an active subscription.${why} Complete the PayPal checkout, then deploy again.`,
      );
    },

    /** The deployment engine records which VM a subscription pays for. */
    async attachVm(subscriptionId: string, vmId: string): Promise<void> {
      await deps.repo.update(subscriptionId, { vmId });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
