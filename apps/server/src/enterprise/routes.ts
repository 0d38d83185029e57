import { enterpriseInquirySchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from '../http/rateLimit.js';
import { parse } from '../http/validate.js';
import type { EnterpriseService } from './enterpriseService.js';

export function enterpriseRoutes(
  app: FastifyInstance,
  deps: { enterprise: EnterpriseService; limits: RateLimiter },
) {
  app.post('/api/enterprise-contact', { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const inquiry = parse(enterpriseInquirySchema, request.body);
    await deps.limits.hit('enterpriseInquiry', request.ip);
    const { id } = await deps.enterprise.submit(inquiry);
    return reply.status(201).send({ success: true, id });
  });
}
