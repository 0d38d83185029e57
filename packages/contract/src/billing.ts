import { z } from 'zod';
import { idParam } from './pathParams.js';
import { successSchema, timestampSchema } from './schemaKit.js';
import { vmSizeIdSchema } from './vmSizeSchemas.js';
import { PLAN_CODES, type PlanCode, VM_SIZES } from './vmSizes.js';

/** `paypal` when PayPal credentials are configured; otherwise `free-beta` (trialing, no checkout). */
export const BILLING_MODES = ['paypal', 'free-beta'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

export const CURRENCY = 'USD';
/** How long a free-beta subscription's trial lasts. */
export const FREE_BETA_TRIAL_DAYS = 30;

export interface Plan {
  code: PlanCode;
  name: string;
  vmSize: string;
  /** US dollars per month. */
  priceUsd: number;
  specs: string;
  description: string;
}

/** One monthly plan per VM size, priced from the VM size catalogue. */
export const PLANS: readonly Plan[] = VM_SIZES.map((size) => ({
  code: size.planCode,
  name: `${size.name} VM (${size.specs})`,
  vmSize: size.id,
  priceUsd: size.price,
  specs: size.specs,
  description: size.description,
}));

export function planByCode(code: string): Plan | undefined {
  return PLANS.find((plan) => plan.code === code);
}

export const SUBSCRIPTION_STATUSES = ['pending', 'trialing', 'active', 'past_due', 'cancelled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The spec allows cancelling only from these. */
export const CANCELLABLE_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active'];

export const INVOICE_STATUSES = ['paid', 'issued', 'failed', 'refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** GitHub repository names: letters, digits, '.', '-', '_'; never '.' or '..'. */
export const repoNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'Invalid repository name' })
  .refine((value) => value !== '.' && value !== '..', { error: 'Invalid repository name' });

const ownerSchema = z.string().regex(/^[A-Za-z0-9-]{1,39}$/, { error: 'Invalid repository owner' });

export const idempotencyKeySchema = z
  .string({ error: 'An idempotency_key is required' })
  .trim()
  .min(8, { error: 'The idempotency_key must be at least 8 characters' })
  .max(200, { error: 'The idempotency_key must be at most 200 characters' });

export const createSubscriptionRequestSchema = z.object({
  plan_code: z.enum(['BASIC_1GB', 'PRO_4GB'], { error: 'Unknown plan: choose BASIC_1GB or PRO_4GB' }),
  idempotency_key: idempotencyKeySchema,
  metadata: z.object(
    {
      repo_owner: ownerSchema,
      repo_name: repoNameSchema,
      branch: z.string().min(1, { error: 'A branch is required' }).max(255),
      vm_size: vmSizeIdSchema,
    },
    { error: 'Missing deployment configuration' },
  ),
});
export type CreateSubscriptionRequest = z.infer<typeof createSubscriptionRequestSchema>;

export const cancelSubscriptionRequestSchema = z.object({
  cancel_immediately: z.boolean().default(true),
  reason: z.string().trim().max(500).optional(),
  idempotency_key: idempotencyKeySchema.optional(),
});
export type CancelSubscriptionRequest = z.infer<typeof cancelSubscriptionRequestSchema>;

/**
 * POST /api/subscriptions/{id} names the repository whose workspace the new subscription pays for (the spec's
 * `{repo_name}`); the other methods name a subscription. One parameter name for one path: OpenAPI 3.1 allows
 * no two paths that differ only in it.
 */
export const subscriptionRepoParamsSchema = z.object({
  id: repoNameSchema.describe('The name of the repository whose workspace the new subscription pays for.'),
});
export const subscriptionIdParamsSchema = z.object({ id: idParam('subscription id') });

const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
const usd = z.number().min(0);

/** GET /api/billing/plans. */
export const billingPlansSchema = z.strictObject({
  mode: z.enum(BILLING_MODES),
  currency: z.string(),
  plans: z.array(
    z.strictObject({
      plan_code: z.enum(PLAN_CODES),
      name: z.string(),
      vm_size: z.string(),
      price_usd: usd,
      specs: z.string(),
      description: z.string(),
    }),
  ),
});

export const createSubscriptionResponseSchema = z.strictObject({
  id: z.string(),
  subscription_id: z.string(),
  /** PayPal's approval page; null in free beta (the browser goes straight to deployment). */
  hosted_checkout_url: z.string().nullable(),
  status: subscriptionStatus,
});
export type CreateSubscriptionResponse = z.infer<typeof createSubscriptionResponseSchema>;

export const subscriptionSummarySchema = z.strictObject({
  subscription_id: z.string(),
  plan_name: z.string(),
  plan_code: z.string(),
  status: subscriptionStatus,
  vm_id: z.string().nullable(),
  trial_end: timestampSchema.nullable(),
  next_renewal: timestampSchema.nullable(),
  created_at: timestampSchema,
});
export type SubscriptionSummary = z.infer<typeof subscriptionSummarySchema>;

export const subscriptionDetailSchema = subscriptionSummarySchema.extend({
  id: z.string(),
  plan: z.strictObject({
    code: z.string(),
    name: z.string(),
    price_usd: usd,
    currency: z.string(),
    interval: z.literal('month'),
  }),
  workspace_name: z.string(),
  vm_size: z.string(),
  repo_owner: z.string().nullable(),
  repo_name: z.string().nullable(),
  branch: z.string().nullable(),
  provider: z.enum(BILLING_MODES),
  /** Still awaiting approval at PayPal: where to approve it. */
  hosted_checkout_url: z.string().nullable(),
  cancelled_at: timestampSchema.nullable(),
});
export type SubscriptionDetail = z.infer<typeof subscriptionDetailSchema>;

export const invoiceSchema = z.strictObject({
  invoice_id: z.string(),
  subscription_id: z.string(),
  amount_usd: usd,
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES),
  period_start: timestampSchema,
  period_end: timestampSchema,
  issued_at: timestampSchema,
  paid_at: timestampSchema.nullable(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const subscriptionInvoicesSchema = z.strictObject({
  is_trial: z.boolean(),
  message: z.string().nullable(),
  trial_end_date: timestampSchema.nullable(),
  subscription_status: subscriptionStatus,
  invoices: z.array(invoiceSchema),
});
export type SubscriptionInvoices = z.infer<typeof subscriptionInvoicesSchema>;

export const cancelSubscriptionResponseSchema = successSchema.extend({
  subscription_id: z.string(),
  status: subscriptionStatus,
  cancelled_at: timestampSchema.nullable(),
  message: z.string(),
});
export type CancelSubscriptionResponse = z.infer<typeof cancelSubscriptionResponseSchema>;

/** What POST /api/webhooks/paypal answers to a verified delivery. */
export const webhookOutcomeSchema = z.strictObject({
  event_id: z.string(),
  /** processed: acted on now; replayed: this event id was acted on before, nothing changed. */
  status: z.enum(['processed', 'replayed']),
  result: z.string(),
});
export type WebhookOutcome = z.infer<typeof webhookOutcomeSchema>;
