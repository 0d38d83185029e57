import { CURRENCY, PLANS } from '@slipway/contract';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { BillingModule } from './billingModule.js';

export function billingRoutes(deps: { billing: BillingModule }) {
  const { billing } = deps;
  return {
    billingPlans: () => ({
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
    }),
    createSubscription: ({ user, params, body }) => billing.create(user, params.id, body),
    listSubscriptions: ({ user }) => billing.list(user.id),
    getSubscription: ({ user, params }) => billing.get(user.id, params.id),
    cancelSubscription: ({ user, params, body }) => billing.cancel(user.id, params.id, body),
    subscriptionInvoices: ({ user, params }) => billing.subscriptionInvoices(user.id, params.id),
    listInvoices: ({ user }) => billing.invoices(user.id),
    // PayPal's signature covers the exact bytes it sent.
    paypalWebhook: ({ body, request }) => billing.webhook.receive(body.toString('utf8'), request.headers),
  } satisfies Partial<RouteHandlers>;
}
