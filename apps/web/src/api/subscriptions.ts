import type { SubscriptionDetail, SubscriptionSummary } from '@slipway/contract';
import { useQuery } from '@tanstack/react-query';
import { callRoute } from './routeClient';

export const subscriptionsKey = ['subscriptions'] as const;

export async function fetchSubscriptions(): Promise<SubscriptionSummary[]> {
  return callRoute('listSubscriptions');
}

export async function fetchSubscription(id: string): Promise<SubscriptionDetail> {
  return callRoute('getSubscription', { params: { id } });
}

/** A key unique to this attempt: time plus a random part (spec §9). */
export function idempotencyKey(prefix: string): string {
  return `${prefix}-${Date.now()}-${crypto.randomUUID()}`;
}

export async function cancelSubscription(id: string, reason: string): Promise<void> {
  await callRoute('cancelSubscription', {
    params: { id },
    body: { cancel_immediately: true, reason, idempotency_key: idempotencyKey(`cancel-${id}`) },
  });
}

export function useSubscriptions() {
  return useQuery({ queryKey: subscriptionsKey, queryFn: fetchSubscriptions, staleTime: 0 });
}

/** One subscription's details; no retry (the invoices screen only logs a failure). */
export function useSubscription(id: string | undefined) {
  return useQuery({
    queryKey: ['subscription', id],
    queryFn: () => fetchSubscription(id ?? ''),
    enabled: Boolean(id),
    retry: false,
  });
}
