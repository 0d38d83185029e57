import {
  CURRENCY,
  cancelSubscriptionRequestSchema,
  createSubscriptionRequestSchema,
  PLANS,
  repoNameSchema,
} from '@slipway/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { BillingModule } from './billingModule.js';

const repoParams = z.object({ repo_name: repoNameSchema });
const idParams = z.object({ id: z.string().min(1).max(200) });
const WEBHOOK_BODY_LIMIT = 256 * 1024;

export function billingRoutes(app: FastifyInstance, deps: { billing: BillingModule }) {
  const { billing } = deps;
  const whitelisted = { preHandler: requireWhitelisted };

  app.get('/api/billing/plans', whitelisted, async () => ({
    mode: billing.mode,
    currency: CURRENCY,
    plans: PLANS.map((plan) => ({
      plan_code: plan.code,
      name: plan.name,
      vm_size: plan.vmSize,
      price_usd: plan.priceUsd,
      specs: plan.specs,
      description: plan.description,
    })),
  }));

  app.post('/api/subscriptions/:repo_name', { ...whitelisted, bodyLimit: 16 * 1024 }, async (request) => {
    const { repo_name } = parse(repoParams, request.params);
    const body = parse(createSubscriptionRequestSchema, request.body);
    return billing.create(currentUser(request), repo_name, body);
  });

  app.get('/api/subscriptions', whitelisted, async (request) => billing.list(currentUser(request).id));

  app.get('/api/subscriptions/:id', whitelisted, async (request) => {
    const { id } = parse(idParams, request.params);
    return billing.get(currentUser(request).id, id);
  });

  app.post('/api/subscriptions/:id/cancel', { ...whitelisted, bodyLimit: 16 * 1024 }, async (request) => {
    const { id } = parse(idParams, request.params);
    const body = parse(cancelSubscriptionRequestSchema, request.body ?? {});
    return billing.cancel(currentUser(request).id, id, body);
  });

  app.get('/api/subscriptions/:id/invoices', whitelisted, async (request) => {
    const { id } = parse(idParams, request.params);
    return billing.subscriptionInvoices(currentUser(request).id, id);
  });

  app.get('/api/invoices', whitelisted, async (request) => billing.invoices(currentUser(request).id));

  // PayPal's signature covers the exact bytes it sent, so this route keeps the body as a string.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, raw, done) => done(null, raw),
    );
    scope.post('/api/webhooks/paypal', { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request) =>
      billing.webhook.receive(typeof request.body === 'string' ? request.body : '', request.headers),
    );
  });
}
