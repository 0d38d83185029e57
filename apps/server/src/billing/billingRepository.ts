import type { SubscriptionStatus } from '@slipway/contract';
import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../infra/db/client.js';
import { invoices, subscriptions } from '../infra/db/schema.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

/** What `subscriptions.metadata` holds: the deployment it pays for, and billing facts with no column. */
export interface SubscriptionMetadata {
  repo_owner?: string;
  repo_name?: string;
  branch?: string;
  /** Same idempotency key, different request: refused instead of silently answering the first. */
  request_fingerprint?: string;
  hosted_checkout_url?: string | null;
  cancellation?: {
    idempotency_key: string | null;
    reason: string | null;
    immediately: boolean;
    /** Until when the customer has paid: the workspace keeps running until then (plus grace). */
    paid_through: string | null;
  };
  past_due_since?: string;
  /** Set once the lapse sweeper's workspace stop has been confirmed (and the email sent). */
  lapse_handled_at?: string;
}

export const metadataOf = (row: SubscriptionRow) => row.metadata as SubscriptionMetadata;

/** Every query on subscriptions and invoices. Lookups that serve a user always take their id. */
export function createBillingRepository(db: Db) {
  return {
    /** Inserts unless (user, idempotency key) exists; either way returns the row that holds the key. */
    async insertOnce(
      values: typeof subscriptions.$inferInsert,
    ): Promise<{ row: SubscriptionRow; created: boolean }> {
      const [inserted] = await db.insert(subscriptions).values(values).onConflictDoNothing().returning();
      if (inserted) return { row: inserted, created: true };
      const [existing] = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, values.userId),
            eq(subscriptions.idempotencyKey, values.idempotencyKey),
          ),
        );
      if (!existing)
        throw new Error('subscription insert conflicted on something other than its idempotency key');
      return { row: existing, created: false };
    },

    /** The user's subscription by our id or PayPal's (PayPal appends its own id to the return URL). */
    async findOwned(userId: string, id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            or(eq(subscriptions.id, id), eq(subscriptions.providerSubscriptionId, id)),
          ),
        );
      return row;
    },

    async findById(id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
      return row;
    },

    async findByProviderId(providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
      return row;
    },

    listForUser(userId: string): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(desc(subscriptions.createdAt));
    },

    /** The user's subscriptions for one workspace and plan in the given statuses, newest first. */
    findForWorkspace(
      userId: string,
      workspaceName: string,
      planCode: string,
      statuses: readonly SubscriptionStatus[],
    ): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, userId),
            eq(subscriptions.workspaceName, workspaceName),
            eq(subscriptions.planCode, planCode),
            inArray(subscriptions.status, [...statuses]),
          ),
        )
        .orderBy(desc(subscriptions.createdAt));
    },

    listInStatuses(statuses: readonly SubscriptionStatus[]): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(inArray(subscriptions.status, [...statuses]));
    },

    async update(
      id: string,
      set: Partial<typeof subscriptions.$inferInsert>,
      onlyFrom?: readonly SubscriptionStatus[],
    ): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .update(subscriptions)
        .set({ ...set, updatedAt: new Date() })
        .where(
          onlyFrom
            ? and(eq(subscriptions.id, id), inArray(subscriptions.status, [...onlyFrom]))
            : eq(subscriptions.id, id),
        )
        .returning();
      return row;
    },

    invoicesForUser(userId: string): Promise<InvoiceRow[]> {
      return db
        .select({ invoice: invoices })
        .from(invoices)
        .innerJoin(subscriptions, eq(subscriptions.id, invoices.subscriptionId))
        .where(eq(subscriptions.userId, userId))
        .orderBy(desc(invoices.issuedAt))
        .then((rows) => rows.map((row) => row.invoice));
    },

    /** Creates the invoice for a provider payment, or updates it when PayPal tells us about it again. */
    async upsertInvoice(values: typeof invoices.$inferInsert & { providerRef: string }): Promise<InvoiceRow> {
      const [row] = await db
        .insert(invoices)
        .values(values)
        .onConflictDoUpdate({
          target: invoices.providerRef,
          set: { status: values.status, amountCents: values.amountCents, paidAt: values.paidAt ?? null },
        })
        .returning();
      return row!;
    },

    async setInvoiceStatusByProviderRef(
      providerRef: string,
      status: string,
    ): Promise<InvoiceRow | undefined> {
      const [row] = await db
        .update(invoices)
        .set({ status })
        .where(eq(invoices.providerRef, providerRef))
        .returning();
      return row;
    },

    invoicesForSubscription(subscriptionId: string): Promise<InvoiceRow[]> {
      return db
        .select()
        .from(invoices)
        .where(eq(invoices.subscriptionId, subscriptionId))
        .orderBy(desc(invoices.issuedAt));
    },
  };
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;
