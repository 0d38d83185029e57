import type { RateLimiter } from '../http/rateLimit.js';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { AlertConfigService } from './alertConfigService.js';

export function notificationsRoutes(deps: { alertConfigs: AlertConfigService; limits: RateLimiter }) {
  const { alertConfigs } = deps;
  return {
    getAlertConfig: ({ user, params }) => alertConfigs.get(user.id, params.workspace),
    saveAlertConfig: ({ user, params, body }) => alertConfigs.save(user.id, params.workspace, body),
    testAlertSink: async ({ user, params, body }) => {
      // Per user, whatever the workspace or channel: the address is the user's to choose.
      await deps.limits.hit('testNotification', user.id);
      return alertConfigs.test(user.id, params.workspace, params.sink_type, body.config);
    },
  } satisfies Partial<RouteHandlers>;
}
