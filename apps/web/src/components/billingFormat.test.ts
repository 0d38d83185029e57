import type { Invoice } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  canCancel,
  formatUsd,
  invoiceTone,
  shortInvoiceId,
  subscriptionTone,
  summarizeInvoices,
} from './billingFormat';

const invoice = (status: Invoice['status'], amount: number): Invoice => ({
  invoice_id: crypto.randomUUID(),
  subscription_id: 's',
  amount_usd: amount,
  currency: 'USD',
  status,
  period_start: '2025-01-01T00:00:00Z',
  period_end: '2025-02-01T00:00:00Z',
  issued_at: '2025-01-01T00:00:00Z',
  paid_at: null,
});

describe('billing format', () => {
  it('styles the four subscription statuses and leaves others neutral', () => {
    const statuses = ['trialing', 'active', 'past_due', 'cancelled', 'pending'];
    expect(statuses.map(subscriptionTone)).toEqual(['info', 'success', 'warning', 'danger', 'neutral']);
  });

  it('styles invoice statuses, leaving unknown ones neutral', () => {
    expect(invoiceTone('paid')).toBe('success');
    expect(invoiceTone('weird')).toBe('neutral');
  });

  it('allows cancel only while trialing or active', () => {
    const cancellable = ['trialing', 'active', 'past_due', 'cancelled'].filter(canCancel);
    expect(cancellable).toEqual(['trialing', 'active']);
  });

  it('shows 8 characters of an invoice id and USD amounts', () => {
    expect(shortInvoiceId('0123456789abcdef')).toBe('01234567...');
    expect(formatUsd(12)).toBe('$12.00');
  });

  it('sums paid invoices only', () => {
    expect(
      summarizeInvoices([
        invoice('paid', 12),
        invoice('paid', 30.1),
        invoice('issued', 12),
        invoice('failed', 5),
      ]),
    ).toEqual({
      total: 4,
      paidAmount: 42.1,
      paidCount: 2,
    });
    expect(summarizeInvoices([])).toEqual({ total: 0, paidAmount: 0, paidCount: 0 });
  });
});
