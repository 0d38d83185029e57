import { CANCELLABLE_STATUSES, type Invoice, type SubscriptionStatus } from '@slipway/contract';
import type { BadgeTone } from './ui';

/** Spec: trialing, active, past_due, cancelled have their own styles; anything else is neutral. */
const SUBSCRIPTION_TONES = new Map<string, BadgeTone>([
  ['trialing', 'info'],
  ['active', 'success'],
  ['past_due', 'warning'],
  ['cancelled', 'danger'],
]);

const INVOICE_TONES = new Map<string, BadgeTone>([
  ['paid', 'success'],
  ['issued', 'info'],
  ['failed', 'danger'],
  ['refunded', 'warning'],
]);

export const subscriptionTone = (status: string): BadgeTone => SUBSCRIPTION_TONES.get(status) ?? 'neutral';

export const invoiceTone = (status: string): BadgeTone => INVOICE_TONES.get(status) ?? 'neutral';

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
