import { integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, users } from './coreTables.js';

/** Billing: subscriptions, invoices, the payment provider's ids, and webhook deliveries already acted on. */

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceName: text('workspace_name').notNull(),
    planCode: text('plan_code').notNull(),
    planName: text('plan_name').notNull(),
    vmSize: text('vm_size').notNull(),
    /** How many nodes (VMs of `vm_size`) it pays for: PayPal's quantity; each costs the plan's price. */
    nodes: integer('nodes').notNull().default(1),
    status: text('status').notNull(),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').unique(),
    idempotencyKey: text('idempotency_key').notNull(),
    vmId: text('vm_id'),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    nextRenewal: timestamp('next_renewal', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('subscriptions_idempotency_idx').on(t.userId, t.idempotencyKey)],
);

export const invoices = pgTable('invoices', {
  id: text('id').primaryKey(),
  subscriptionId: text('subscription_id')
    .notNull()
    .references(() => subscriptions.id, { onDelete: 'cascade' }),
  amountCents: integer('amount_cents').notNull(),
  status: text('status').notNull(),
  periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
  periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp('paid_at', { withTimezone: true }),
  providerRef: text('provider_ref').unique(),
});

/** Objects created once at a payment provider (catalog product, one plan per plan code) and remembered. */
export const billingProviderRefs = pgTable(
  'billing_provider_refs',
  {
    provider: text('provider').notNull(),
    key: text('key').notNull(),
    ref: text('ref').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.key] })],
);

/** Webhook deliveries already acted on: the same delivery id twice acts once. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  eventType: text('event_type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
