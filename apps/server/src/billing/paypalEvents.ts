import { planByCode, type SubscriptionStatus } from '@slipway/contract';
import { z } from 'zod';
import type { PaypalSubscription } from '../infra/paypal/paypalApi.js';
import { type BillingRepository, metadataOf, type SubscriptionRow } from './billingRepository.js';

/** PayPal's subscription status in our vocabulary; undefined for one we do not know. */
export function statusFromPaypal(status: string): SubscriptionStatus | undefined {
  const map: Record<string, SubscriptionStatus> = {
    APPROVAL_PENDING: 'pending',
    APPROVED: 'pending',
    ACTIVE: 'active',
    SUSPENDED: 'past_due',
    CANCELLED: 'cancelled',
    EXPIRED: 'cancelled',
  };
  return map[status];
}

export const paypalEventSchema = z.object({
  id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  create_time: z.string().optional(),
  resource: z.record(z.string(), z.unknown()).default({}),
});
export type PaypalEvent = z.infer<typeof paypalEventSchema>;

/** PAYMENT.SALE.* resources: a payment taken for a subscription (billing agreement). */
const saleSchema = z.object({
  id: z.string().min(1),
  billing_agreement_id: z.string().optional(),
  custom: z.string().optional(),
  amount: z.object({ total: z.string(), currency: z.string().optional() }).optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
});
const refundSchema = z.object({ sale_id: z.string().min(1) });

const cents = (value: string | undefined) => {
  const amount = Number.parseFloat(value ?? '');
  return Number.isFinite(amount) ? Math.round(amount * 100) : undefined;
};
const date = (value: string | undefined, fallback: Date) => {
  const parsed = value ? new Date(value) : undefined;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : fallback;
};
const addMonth = (start: Date) => {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
};

const planCents = (row: SubscriptionRow) => Math.round((planByCode(row.planCode)?.priceUsd ?? 0) * 100);

/**
 * Applies one verified, first-time PayPal event to subscriptions and invoices. Events may arrive out of
 * order, so nothing here brings a cancelled subscription back to life.
 */
export async function applyPaypalEvent(repo: BillingRepository, event: PaypalEvent, now = new Date()) {
  const eventTime = date(event.create_time, now);

  async function subscriptionOf(resource: { id?: unknown; custom_id?: unknown }) {
    const providerId = typeof resource.id === 'string' ? resource.id : undefined;
    const byProvider = providerId ? await repo.findByProviderId(providerId) : undefined;
    if (byProvider) return byProvider;
    return typeof resource.custom_id === 'string' ? repo.findById(resource.custom_id) : undefined;
  }

  const live: SubscriptionStatus[] = ['pending', 'trialing', 'active', 'past_due'];

  switch (event.event_type) {
    case 'BILLING.SUBSCRIPTION.ACTIVATED':
    case 'BILLING.SUBSCRIPTION.RE-ACTIVATED': {
      const resource = event.resource as Partial<PaypalSubscription>;
      const row = await subscriptionOf(resource);
      if (!row) return 'unknown_subscription';
      const next = resource.billing_info?.next_billing_time;
      const { past_due_since: _cleared, ...metadata } = metadataOf(row);
      await repo.update(
        row.id,
        { status: 'active', metadata, ...(next ? { nextRenewal: new Date(next) } : {}) },
        live,
      );
      return 'applied';
    }
    case 'PAYMENT.SALE.COMPLETED': {
      const sale = saleSchema.parse(event.resource);
      const row = sale.billing_agreement_id
        ? await repo.findByProviderId(sale.billing_agreement_id)
        : sale.custom
          ? await repo.findById(sale.custom)
          : undefined;
      if (!row) return 'unknown_subscription';
      const paidAt = date(sale.create_time, eventTime);
      const periodEnd = addMonth(paidAt);
      await repo.upsertInvoice({
        id: `inv_${sale.id}`,
        subscriptionId: row.id,
        amountCents: cents(sale.amount?.total) ?? planCents(row),
        status: 'paid',
        periodStart: paidAt,
        periodEnd,
        issuedAt: paidAt,
        paidAt,
        providerRef: sale.id,
      });
      const { past_due_since: _cleared, ...metadata } = metadataOf(row);
      const nextRenewal = row.nextRenewal && row.nextRenewal > periodEnd ? row.nextRenewal : periodEnd;
      await repo.update(row.id, { status: 'active', nextRenewal, metadata }, live);
      return 'applied';
    }
    case 'PAYMENT.SALE.REFUNDED':
    case 'PAYMENT.SALE.REVERSED': {
      const refund = refundSchema.safeParse(event.resource);
      if (!refund.success) return 'ignored';
      const invoice = await repo.setInvoiceStatusByProviderRef(refund.data.sale_id, 'refunded');
      return invoice ? 'applied' : 'unknown_invoice';
    }
    case 'BILLING.SUBSCRIPTION.PAYMENT.FAILED': {
      const resource = event.resource as Partial<PaypalSubscription>;
      const row = await subscriptionOf(resource);
      if (!row) return 'unknown_subscription';
      const failed = resource.billing_info?.last_failed_payment;
      const periodStart = date(failed?.time, eventTime);
      await repo.upsertInvoice({
        id: `inv_${event.id}`,
        subscriptionId: row.id,
        amountCents: cents(failed?.amount?.value) ?? planCents(row),
        status: 'failed',
        periodStart,
        periodEnd: addMonth(periodStart),
        issuedAt: eventTime,
        paidAt: null,
        providerRef: `failed:${event.id}`,
      });
      await markPastDue(repo, row, eventTime);
      return 'applied';
    }
    case 'BILLING.SUBSCRIPTION.SUSPENDED': {
      const row = await subscriptionOf(event.resource);
      if (!row) return 'unknown_subscription';
      await markPastDue(repo, row, eventTime);
      return 'applied';
    }
    case 'BILLING.SUBSCRIPTION.CANCELLED':
    case 'BILLING.SUBSCRIPTION.EXPIRED': {
      const row = await subscriptionOf(event.resource);
      if (!row || row.status === 'cancelled') return row ? 'applied' : 'unknown_subscription';
      const metadata = metadataOf(row);
      // Cancelled at PayPal: the customer keeps what they paid for, up to the next renewal.
      const paidThrough =
        row.nextRenewal && row.nextRenewal > eventTime ? row.nextRenewal.toISOString() : null;
      await repo.update(row.id, {
        status: 'cancelled',
        cancelledAt: eventTime,
        metadata: {
          ...metadata,
          cancellation: metadata.cancellation ?? {
            idempotency_key: null,
            reason:
              event.event_type === 'BILLING.SUBSCRIPTION.EXPIRED'
                ? 'Expired at PayPal'
                : 'Cancelled at PayPal',
            immediately: false,
            paid_through: paidThrough,
          },
        },
      });
      return 'applied';
    }
    default:
      return 'ignored';
  }
}

async function markPastDue(repo: BillingRepository, row: SubscriptionRow, since: Date) {
  const metadata = metadataOf(row);
  await repo.update(
    row.id,
    {
      status: 'past_due',
      metadata: { ...metadata, past_due_since: metadata.past_due_since ?? since.toISOString() },
    },
    ['pending', 'trialing', 'active', 'past_due'],
  );
}
