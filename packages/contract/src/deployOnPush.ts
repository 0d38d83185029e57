import { z } from 'zod';

/** GET and PUT /api/workspace-deploy-on-push/{name}: whether a push to the workspace's branch deploys it. */
export const deployOnPushSchema = z.strictObject({ enabled: z.boolean() });
export type DeployOnPush = z.infer<typeof deployOnPushSchema>;

/** What POST /api/webhooks/github answers to a delivery whose signature was verified. */
export const githubWebhookOutcomeSchema = z.strictObject({
  delivery_id: z.string(),
  /**
   * queued: a push that marked workspaces for a deployment; ignored: an event or push that deploys nothing
   * (another branch, a deleted branch, deploy on push off, a ping); replayed: this delivery id was handled before.
   */
  status: z.enum(['queued', 'ignored', 'replayed']),
  /** How many workspaces the push will deploy. */
  workspaces: z.number().int(),
});
export type GithubWebhookOutcome = z.infer<typeof githubWebhookOutcomeSchema>;
