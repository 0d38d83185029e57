import {
  type CreateSubscriptionRequest,
  type CreateSubscriptionResponse,
  planCodeFor,
} from '@slipway/contract';
import { serverDetail } from './errors';
import { callRoute } from './routeClient';

/** Time plus a random part: a retry of the same click reuses it, a new click makes a new one. */
export function newIdempotencyKey(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2);
  return `sub-${Date.now()}-${random}`;
}

export interface SubscriptionDeployment {
  owner: string;
  repo: string;
  branch: string;
  vmSize: string;
}

/** POST /api/subscriptions/{repo_name}. Errors carry the server detail or 'Failed to create subscription'. */
export async function createSubscription(
  deployment: SubscriptionDeployment,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<CreateSubscriptionResponse> {
  const body: CreateSubscriptionRequest = {
    plan_code: planCodeFor(deployment.vmSize),
    idempotency_key: idempotencyKey,
    metadata: {
      repo_owner: deployment.owner,
      repo_name: deployment.repo,
      branch: deployment.branch,
      vm_size: deployment.vmSize as CreateSubscriptionRequest['metadata']['vm_size'],
    },
  };
  try {
    return await callRoute('createSubscription', { params: { id: deployment.repo }, body });
  } catch (error) {
    throw new Error(serverDetail(error) ?? 'Failed to create subscription', { cause: error });
  }
}
