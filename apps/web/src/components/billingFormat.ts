import { CANCELLABLE_STATUSES, type Invoice, type SubscriptionStatus } from '@slipway/contract';
import type { BadgeTone } from './ui';

/** Spec: trialing, active, past_due, cancelled have their own styles; anything else is neutral. */
export function subscriptionTone(status: string): BadgeTone {
  switch (status) {
    case 'trialing':
      return 'info';
    case 'active':
      return 'success';
    case 'past_due':
      return 'warning';
    case 'cancelled':
      return 'danger';
    default:
      return 'neutral';
  }
}

export function invoiceTone(status: string): BadgeTone {
  switch (status) {
    case 'paid':
      return 'success';
    case 'issued':
      return 'info';
    case 'failed':
      return 'danger';
    case 'refunded':
      return 'warning';
    default:
      return 'neutral';
  }
}

export function canCancel(status: string): boolean {
  return (CANCELLABLE_STATUSES as readonly string[]).includes(status as SubscriptionStatus);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatUsd = (amount: number) => usd.format(amount);

/** Spec: an invoice is shown by the first 8 characters of its id plus '...'. */
export const shortInvoiceId = (id: string) => `${id.slice(0, 8)}...`;

export interface InvoiceSummary {
  total: number;
  paidAmount: number;
  paidCount: number;
}

/** Total invoices, the amount paid (paid invoices only) and how many are paid. */
export function summarizeInvoices(invoices: Invoice[]): InvoiceSummary {
  const paid = invoices.filter((invoice) => invoice.status === 'paid');
  const cents = paid.reduce((sum, invoice) => sum + Math.round(invoice.amount_usd * 100), 0);
  return { total: invoices.length, paidAmount: cents / 100, paidCount: paid.length };
}

export const statusLabel = (status: string) => status.replace(/_/g, ' ');
