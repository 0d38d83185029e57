import { z } from 'zod';
import {
  billingPlansSchema,
  cancelSubscriptionRequestSchema,
  cancelSubscriptionResponseSchema,
  createSubscriptionRequestSchema,
  createSubscriptionResponseSchema,
  invoiceSchema,
  subscriptionDetailSchema,
  subscriptionIdParamsSchema,
  subscriptionInvoicesSchema,
  subscriptionRepoParamsSchema,
  subscriptionSummarySchema,
  webhookOutcomeSchema,
} from '../billing.js';
import { route } from '../route.js';

/** Plans, subscriptions, invoices and PayPal's webhook. */
export const billingRoutes = {
  billingPlans: route({
    method: 'GET',
    path: '/api/billing/plans',
    kind: 'json',
    access: 'whitelisted',
    responses: { 200: billingPlansSchema },
  }),
  createSubscription: route({
    method: 'POST',
    path: '/api/subscriptions/:repo_name',
    kind: 'json',
    access: 'whitelisted',
    params: subscriptionRepoParamsSchema,
    body: createSubscriptionRequestSchema,
    responses: { 200: createSubscriptionResponseSchema },
  }),
  listSubscriptions: route({
    method: 'GET',
    path: '/api/subscriptions',
    kind: 'json',
    access: 'whitelisted',
    responses: { 200: z.array(subscriptionSummarySchema) },
  }),
  getSubscription: route({
    method: 'GET',
    path: '/api/subscriptions/:id',
    kind: 'json',
    access: 'whitelisted',
    params: subscriptionIdParamsSchema,
    responses: { 200: subscriptionDetailSchema },
  }),
  cancelSubscription: route({
    method: 'POST',
    path: '/api/subscriptions/:id/cancel',
    kind: 'json',
    access: 'whitelisted',
    params: subscriptionIdParamsSchema,
    body: cancelSubscriptionRequestSchema,
    responses: { 200: cancelSubscriptionResponseSchema },
  }),
  subscriptionInvoices: route({
    method: 'GET',
    path: '/api/subscriptions/:id/invoices',
    kind: 'json',
    access: 'whitelisted',
    params: subscriptionIdParamsSchema,
    responses: { 200: subscriptionInvoicesSchema },
  }),
  listInvoices: route({
    method: 'GET',
    path: '/api/invoices',
    kind: 'json',
    access: 'whitelisted',
    responses: { 200: z.array(invoiceSchema) },
  }),
  paypalWebhook: route({
    method: 'POST',
    path: '/api/webhooks/paypal',
    kind: 'webhook',
    access: 'public',
    responses: { 200: webhookOutcomeSchema },
    note: 'Raw body of any content type, verified by PayPal signature; no anti-forgery token.',
  }),
};
