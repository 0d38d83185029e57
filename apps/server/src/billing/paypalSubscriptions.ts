import { planCodeFor } from '@slipway/contract';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import type { PaypalApi } from '../infra/paypal/paypalApi.js';
import { PaypalApiError } from '../infra/paypal/paypalClient.js';
import type { UserRow } from '../users/usersRepository.js';
import { type BillingRepository, metadataOf, type SubscriptionRow } from './billingRepository.js';
import type { PaypalCatalog } from './paypalCatalog.js';
import { statusFromPaypal } from './paypalEvents.js';

export interface PaypalBilling {
  api: PaypalApi;
  catalog: PaypalCatalog;
}

const notConfigured = () =>
  new DomainError('unavailable', 'PayPal billing is not configured on this server any more.');

/**
 * The PayPal side of a subscription row: its checkout, its status while awaiting approval, its cancellation.
 * Every state-changing call carries a PayPal-Request-Id derived from our row id, so a retry is the same call.
 */
export function createPaypalSubscriptions(deps: {
  repo: BillingRepository;
  paypal: PaypalBilling | undefined;
  publicUrl: string;
  logger: Logger;
}) {
  return {
    /** Creates the PayPal subscription of a pending row once and stores its approval link. */
    async ensureCheckout(row: SubscriptionRow, user: UserRow): Promise<SubscriptionRow> {
      if (row.provider !== 'paypal' || row.status !== 'pending' || row.providerSubscriptionId) return row;
      if (!deps.paypal) throw notConfigured();
      const metadata = metadataOf(row);
      const billingPage = `/billing/${encodeURIComponent(metadata.repo_owner ?? '')}/${encodeURIComponent(metadata.repo_name ?? row.workspaceName)}`;
      const created = await deps.paypal.api.createSubscription(
        {
          planId: await deps.paypal.catalog.planId(planCodeFor(row.vmSize)),
          quantity: row.nodes,
          customId: row.id,
          returnUrl: `${deps.publicUrl}/payment-success?subscription_id=${encodeURIComponent(row.id)}`,
          cancelUrl: `${deps.publicUrl}${billingPage}`,
          email: user.email ?? undefined,
        },
        `slipway-subscription-${row.id}`,
      );
      const updated = await deps.repo.update(row.id, {
        providerSubscriptionId: created.id,
        status: statusFromPaypal(created.status) ?? 'pending',
        metadata: { ...metadata, hosted_checkout_url: created.approveUrl },
      });
      return updated ?? row;
    },

    /** A pending subscription asks PayPal directly: the buyer may be back before the webhook is. */
    async refreshPending(row: SubscriptionRow): Promise<SubscriptionRow> {
      if (row.status !== 'pending' || !row.providerSubscriptionId || !deps.paypal) return row;
      try {
        const remote = await deps.paypal.api.getSubscription(row.providerSubscriptionId);
        const status = statusFromPaypal(remote.status);
        if (!status || status === 'pending') return row;
        const nextRenewal = remote.billing_info?.next_billing_time;
        const updated = await deps.repo.update(
          row.id,
          { status, ...(nextRenewal ? { nextRenewal: new Date(nextRenewal) } : {}) },
          ['pending'],
        );
        return updated ?? (await deps.repo.findById(row.id)) ?? row;
      } catch (error) {
        deps.logger.warn(
          { err: error, subscription: row.id },
          'could not refresh a pending PayPal subscription',
        );
        return row;
      }
    },

    /** Refuses up front when a PayPal subscription can no longer be reached to cancel it. */
    assertCancellable(row: SubscriptionRow) {
      if (row.provider === 'paypal' && row.providerSubscriptionId && !deps.paypal) throw notConfigured();
    },

    /** Cancels at PayPal; false when PayPal failed (the caller restores the row). */
    async cancel(row: SubscriptionRow, reason: string): Promise<boolean> {
      if (row.provider !== 'paypal' || !row.providerSubscriptionId || !deps.paypal) return true;
      try {
        await deps.paypal.api.cancelSubscription(
          row.providerSubscriptionId,
          reason,
          `slipway-cancel-${row.id}`,
        );
        return true;
      } catch (error) {
        // 422 means PayPal already considers it cancelled or expired: the outcome we wanted.
        if (error instanceof PaypalApiError && error.status === 422) return true;
        deps.logger.warn({ err: error, subscription: row.id }, 'PayPal cancel failed');
        return false;
      }
    },
  };
}
