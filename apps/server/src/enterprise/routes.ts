import { enterpriseInquirySchema } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../domain/errors.js';
import { parse } from '../http/validate.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { EnterpriseService } from './enterpriseService.js';

const PER_HOUR = 10;

export function enterpriseRoutes(
  app: FastifyInstance,
  deps: { enterprise: EnterpriseService; kv: KeyValueStore },
) {
  app.post('/api/enterprise-contact', { bodyLimit: 64 * 1024 }, async (request, reply) => {
    const inquiry = parse(enterpriseInquirySchema, request.body);
    const attempts = await deps.kv.increment('ratelimit', `enterprise:${request.ip}`, 60 * 60 * 1000);
    if (attempts > PER_HOUR) {
      throw new DomainError('rate_limited', 'Too many inquiries from this address. Please email us instead.');
    }
    const { id } = await deps.enterprise.submit(inquiry);
    return reply.status(201).send({ success: true, id });
  });
}
