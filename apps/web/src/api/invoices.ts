import type { Invoice, SubscriptionInvoices } from '@slipway/contract';
import { callRoute } from './routeClient';

export async function fetchInvoices(): Promise<Invoice[]> {
  return callRoute('listInvoices');
}

export async function fetchSubscriptionInvoices(subscriptionId: string): Promise<SubscriptionInvoices> {
  return callRoute('subscriptionInvoices', { params: { id: subscriptionId } });
}
