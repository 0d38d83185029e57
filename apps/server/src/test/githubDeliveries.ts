import { randomUUID } from 'node:crypto';
import { signDelivery } from '../deploy-on-push/webhookSignature.js';
import type { TestClient } from './testClient.js';

/** A push event as GitHub sends it (the fields of its documented payload, trimmed of URLs), for tests. */
export function githubPushPayload(push: {
  owner: string;
  repo: string;
  branch: string;
  before?: string;
  after: string;
  deleted?: boolean;
}) {
  const zero = '0'.repeat(40);
  return {
    ref: `refs/heads/${push.branch}`,
    before: push.before ?? zero,
    after: push.deleted ? zero : push.after,
    created: false,
    deleted: push.deleted ?? false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/${push.owner}/${push.repo}/compare/${push.after.slice(0, 12)}`,
    commits: push.deleted
      ? []
      : [
          {
            id: push.after,
            tree_id: zero,
            distinct: true,
            message: 'change',
            timestamp: new Date().toISOString(),
          },
        ],
    head_commit: push.deleted ? null : { id: push.after, message: 'change' },
    repository: {
      id: 1296269,
      node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
      name: push.repo,
      full_name: `${push.owner}/${push.repo}`,
      private: true,
      owner: { name: push.owner, email: null, login: push.owner, id: 1, type: 'User' },
      default_branch: 'main',
      master_branch: 'main',
    },
    pusher: { name: push.owner, email: `${push.owner}@users.noreply.github.com` },
    sender: { login: push.owner, id: 1, type: 'User' },
  };
}

/**
 * Delivers a webhook the way GitHub does: the JSON body, X-GitHub-Event, X-GitHub-Delivery and
 * X-Hub-Signature-256 signed with `secret` (or the `signature` given, null for none).
 */
export function deliverGithubEvent(
  client: TestClient,
  secret: string,
  event: string,
  payload: unknown,
  options: { deliveryId?: string; signature?: string | null } = {},
) {
  const body = JSON.stringify(payload);
  const signature = options.signature === undefined ? signDelivery(secret, body) : options.signature;
  return client.request('POST', '/api/webhooks/github', body, {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/044aadd',
    'x-github-event': event,
    'x-github-delivery': options.deliveryId ?? randomUUID(),
    'x-github-hook-id': '292430182',
    ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
  });
}
