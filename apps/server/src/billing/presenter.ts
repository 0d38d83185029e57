import {
  type BillingMode,
  type CreateSubscriptionResponse,
  CURRENCY,
  type Invoice,
  type InvoiceStatus,
  monthlyPrice,
  planByCode,
  type SubscriptionDetail,
  type SubscriptionStatus,
  type SubscriptionSummary,
} from '@slipway/contract';
import { type InvoiceRow, metadataOf, type SubscriptionRow } from './billingRepository.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentCreated(row: SubscriptionRow): CreateSubscriptionResponse {
  return {
    id: row.id,
    subscription_id: row.id,
    hosted_checkout_url: row.status === 'pending' ? (metadataOf(row).hosted_checkout_url ?? null) : null,
    status: row.status as SubscriptionStatus,
  };
}

export function presentSummary(row: SubscriptionRow): SubscriptionSummary {
  return {
    subscription_id: row.id,
    plan_name: row.planName,
    plan_code: row.planCode,
    status: row.status as SubscriptionStatus,
    vm_id: row.vmId,
    trial_end: iso(row.trialEnd),
    next_renewal: iso(row.nextRenewal),
    created_at: row.createdAt.toISOString(),
    nodes: row.nodes,
  };
}

export function presentDetail(row: SubscriptionRow): SubscriptionDetail {
  const metadata = metadataOf(row);
  const plan = planByCode(row.planCode);
  return {
    ...presentSummary(row),
    id: row.id,
    plan: {
      code: row.planCode,
      name: row.planName,
      price_usd: plan?.priceUsd ?? 0,
      currency: CURRENCY,
      interval: 'month',
    },
    monthly_price_usd: plan ? monthlyPrice({ price: plan.priceUsd }, row.nodes) : 0,
    workspace_name: row.workspaceName,
    vm_size: row.vmSize,
    repo_owner: metadata.repo_owner ?? null,
    repo_name: metadata.repo_name ?? null,
    branch: metadata.branch ?? null,
    provider: row.provider as BillingMode,
    hosted_checkout_url: presentCreated(row).hosted_checkout_url,
    cancelled_at: iso(row.cancelledAt),
  };
}

export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    invoice_id: row.id,
    subscription_id: row.subscriptionId,
    amount_usd: row.amountCents / 100,
    currency: CURRENCY,
    status: row.status as InvoiceStatus,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    issued_at: row.issuedAt.toISOString(),
    paid_at: iso(row.paidAt),
  };
}

/** The note above a subscription's invoices; the web shows it as 'Trial Period Active' while trialing. */
export function invoicesMessage(row: SubscriptionRow, invoiceCount: number): string | null {
  switch (row.status as SubscriptionStatus) {
    case 'trialing':
      return row.provider === 'free-beta'
        ? 'Slipway is in free beta: your trial costs nothing and no invoices are issued until paid plans start.'
        : 'Your trial is active. The first invoice is issued when the trial ends.';
    case 'pending':
      return 'Waiting for PayPal to confirm this subscription. Invoices appear once the first payment completes.';
    case 'past_due':
      return 'The last payment failed. PayPal will retry it; update your payment method at PayPal to keep your workspace running.';
    case 'cancelled':
      return 'This subscription is cancelled. No further invoices will be issued.';
    default:
      return invoiceCount === 0
        ? 'No invoices yet: the first appears when PayPal confirms the first payment.'
        : null;
  }
}
