import type { GithubWebhookOutcome } from '@slipway/contract';
import type { Logger } from 'pino';
import { DomainError, invalid, notFound } from '../domain/errors.js';
import { refuseUnstorableText } from '../http/storableText.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { PushMarks } from '../workspaces/pushMarks.js';
import { parseBranchPush } from './pushEvents.js';
import { verifyDeliverySignature } from './webhookSignature.js';

/** GitHub retries a delivery for a while, and "Redeliver" can be pressed later: a day covers both. */
const DELIVERY_MEMORY_MS = 24 * 60 * 60 * 1000;
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * GitHub's webhook deliveries (POST /api/webhooks/github): the signature checked against GITHUB_WEBHOOK_SECRET
 * before anything is read, each delivery id acted on once (across replicas: an atomic counter in the
 * key-value store), and a push to a branch marks the workspaces that deploy it on push (pushDeployer.ts
 * starts the deployment once the pushes settle).
 */
export function createGithubWebhook(deps: {
  secret: string | undefined;
  marks: PushMarks;
  kv: KeyValueStore;
  logger: Logger;
  /**
   * Events other than `push` (previews/: `pull_request`, `issue_comment`), verified and deduplicated here first;
   * answers how many workspaces it acted for, undefined when it did not read the event.
   */
  otherEvents?: (event: string, payload: unknown) => Promise<number | undefined>;
}) {
  return {
    async receive(rawBody: Buffer, headers: Headers): Promise<GithubWebhookOutcome> {
      if (!deps.secret) throw notFound('GitHub webhooks are not configured (GITHUB_WEBHOOK_SECRET is unset)');
      if (!verifyDeliverySignature(deps.secret, rawBody, headers['x-hub-signature-256'])) {
        deps.logger.warn(
          { delivery: header(headers, 'x-github-delivery') },
          'unsigned GitHub webhook refused',
        );
        throw new DomainError('unauthenticated', 'The webhook signature does not match');
      }
      const deliveryId = header(headers, 'x-github-delivery');
      if (!deliveryId || !DELIVERY_ID.test(deliveryId)) throw invalid('X-GitHub-Delivery is missing');
      const event = header(headers, 'x-github-event');
      let payload: unknown;
      try {
        payload = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw invalid('The webhook body is not valid JSON');
      }
      refuseUnstorableText('body', payload);
      const firstTime =
        (await deps.kv.increment('tokens', `github-delivery:${deliveryId}`, DELIVERY_MEMORY_MS)).count === 1;
      if (!firstTime) return { delivery_id: deliveryId, status: 'replayed', workspaces: 0 };

      // Not acted on: a redelivery may try again.
      const forget = async (error: unknown): Promise<never> => {
        await deps.kv.delete('tokens', `github-delivery:${deliveryId}`).catch(() => false);
        throw error;
      };
      if (event !== 'push' && event && deps.otherEvents) {
        const acted = await deps.otherEvents(event, payload).catch(forget);
        const status = acted ? 'queued' : 'ignored';
        return { delivery_id: deliveryId, status, workspaces: acted ?? 0 };
      }
      const push = event === 'push' ? parseBranchPush(payload) : undefined;
      if (!push || push.deleted) return { delivery_id: deliveryId, status: 'ignored', workspaces: 0 };
      const marked = await deps.marks.markPushed(push.owner, push.repo, push.branch).catch(forget);
      deps.logger.info({ delivery: deliveryId, ...push, workspaces: marked }, 'GitHub push received');
      return { delivery_id: deliveryId, status: marked > 0 ? 'queued' : 'ignored', workspaces: marked };
    },
  };
}

export type GithubWebhook = ReturnType<typeof createGithubWebhook>;
