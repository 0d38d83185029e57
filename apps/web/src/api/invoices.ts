import type { Invoice, SubscriptionInvoices } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from './routeClient';

export async function fetchInvoices(): Promise<Invoice[]> {
  return callRoute('listInvoices');
}

export async function fetchSubscriptionInvoices(subscriptionId: string): Promise<SubscriptionInvoices> {
  return callRoute('subscriptionInvoices', { params: { id: subscriptionId } });
}

/** Every invoice of the user, or one subscription's (with its trial notice); always read fresh. */
export function useInvoices(subscriptionId: string | undefined) {
  return useQuery({
    queryKey: ['invoices', subscriptionId ?? 'all'],
    queryFn: async () =>
      subscriptionId
        ? fetchSubscriptionInvoices(subscriptionId)
        : { invoices: await fetchInvoices(), is_trial: false, message: null, trial_end_date: null },
    staleTime: 0,
  });
}
