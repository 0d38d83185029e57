import type { Invoice, SubscriptionInvoices } from '@slipway/contract';
import { api } from './client';

export async function fetchInvoices(): Promise<Invoice[]> {
  const { data } = await api.get<Invoice[] | { invoices: Invoice[] }>('/api/invoices');
  return Array.isArray(data) ? data : (data.invoices ?? []);
}

export async function fetchSubscriptionInvoices(subscriptionId: string): Promise<SubscriptionInvoices> {
  const { data } = await api.get<SubscriptionInvoices>(
    `/api/subscriptions/${encodeURIComponent(subscriptionId)}/invoices`,
  );
  return { ...data, invoices: data.invoices ?? [] };
}
