import type { RateLimiter } from '../http/rateLimit.js';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { EnterpriseService } from './enterpriseService.js';

export function enterpriseRoutes(deps: { enterprise: EnterpriseService; limits: RateLimiter }) {
  return {
    enterpriseContact: async ({ body, request }) => {
      await deps.limits.hit('enterpriseInquiry', request.ip);
      const { id } = await deps.enterprise.submit(body);
      return { success: true, id };
    },
  } satisfies Partial<RouteHandlers>;
}
