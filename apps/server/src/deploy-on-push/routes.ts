import type { RouteHandlers } from '../http/registerRoutes.js';
import type { DeployOnPushModule } from './deployOnPushModule.js';

export function deployOnPushRoutes(deps: { deployOnPush: DeployOnPushModule }) {
  const { deployOnPush } = deps;
  return {
    getDeployOnPush: ({ user, params }) => deployOnPush.settings.get(user, params.name),
    setDeployOnPush: ({ user, params, body }) => deployOnPush.settings.set(user, params.name, body.enabled),
    // GitHub signs the exact bytes it sent.
    githubWebhook: ({ body, request }) => deployOnPush.webhook.receive(body, request.headers),
  } satisfies Partial<RouteHandlers>;
}
