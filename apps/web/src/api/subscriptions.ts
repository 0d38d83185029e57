import type { SubscriptionDetail, SubscriptionSummary } from '@slipway/contract';
import { api } from './client';

export const subscriptionsKey = ['subscriptions'] as const;

export async function fetchSubscriptions(): Promise<SubscriptionSummary[]> {
  const { data } = await api.get<SubscriptionSummary[] | { subscriptions: SubscriptionSummary[] }>(
    '/api/subscriptions',
  );
  return Array.isArray(data) ? data : (data.subscriptions ?? []);
}

export async function fetchSubscription(id: string): Promise<SubscriptionDetail> {
  const { data } = await api.get<SubscriptionDetail>(`/api/subscriptions/${encodeURIComponent(id)}`);
  return data;
}

/** A key unique to this attempt: time plus a random part (spec §9). */
export function idempotencyKey(prefix: string): string {
  return `${prefix}-${Date.now()}-${crypto.randomUUID()}`;
}

export async function cancelSubscription(id: string, reason: string): Promise<void> {
  await api.post(`/api/subscriptions/${encodeURIComponent(id)}/cancel`, {
    cancel_immediately: true,
    reason,
    idempotency_key: idempotencyKey(`cancel-${id}`),
  });
}
