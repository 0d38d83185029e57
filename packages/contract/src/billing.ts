import { z } from 'zod';
import { type PlanCode, VM_SIZES, vmSizeIdSchema } from './vmSizes.js';

/** `paypal` when PayPal credentials are configured; otherwise `free-beta` (trialing, no checkout). */
export type BillingMode = 'paypal' | 'free-beta';

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
  .string({ error: 'idempotency_key is required' })
  .trim()
  .min(8, { error: 'idempotency_key must be at least 8 characters' })
  .max(200, { error: 'idempotency_key must be at most 200 characters' });

export const createSubscriptionRequestSchema = z.object({
  plan_code: z.enum(['BASIC_1GB', 'PRO_4GB'], { error: 'Unknown plan: choose BASIC_1GB or PRO_4GB' }),
  idempotency_key: idempotencyKeySchema,
  metadata: z.object(
    {
      repo_owner: ownerSchema,
      repo_name: repoNameSchema,
      branch: z.string().min(1, { error: 'branch is required' }).max(255),
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

export interface CreateSubscriptionResponse {
  id: string;
  subscription_id: string;
  /** PayPal's approval page; null in free beta (the browser goes straight to deployment). */
  hosted_checkout_url: string | null;
  status: SubscriptionStatus;
}

export interface SubscriptionSummary {
  subscription_id: string;
  plan_name: string;
  plan_code: string;
  status: SubscriptionStatus;
  vm_id: string | null;
  trial_end: string | null;
  next_renewal: string | null;
  created_at: string;
}

export interface SubscriptionDetail extends SubscriptionSummary {
  id: string;
  plan: { code: string; name: string; price_usd: number; currency: string; interval: 'month' };
  workspace_name: string;
  vm_size: string;
  repo_owner: string | null;
  repo_name: string | null;
  branch: string | null;
  provider: BillingMode;
  /** Still awaiting approval at PayPal: where to approve it. */
  hosted_checkout_url: string | null;
  cancelled_at: string | null;
}

export interface Invoice {
  invoice_id: string;
  subscription_id: string;
  amount_usd: number;
  currency: string;
  status: InvoiceStatus;
  period_start: string;
  period_end: string;
  issued_at: string;
  paid_at: string | null;
}

export interface SubscriptionInvoices {
  is_trial: boolean;
  message: string | null;
  trial_end_date: string | null;
  subscription_status: SubscriptionStatus;
  invoices: Invoice[];
}

export interface CancelSubscriptionResponse {
  success: true;
  subscription_id: string;
  status: SubscriptionStatus;
  cancelled_at: string | null;
  message: string;
}
