import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The tables of the embedded adapters that stand in for Redis (key-value store) and BullMQ (job queue) on
 * one machine. They reference nothing else; schema.ts re-exports them.
 */
/** Key-value entries with expiry: the embedded store for sessions, workflow state and counters. */
export const kvEntries = pgTable(
  'kv_entries',
  {
    namespace: text('namespace').notNull(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.key] }), index('kv_entries_expires_idx').on(t.expiresAt)],
);

/** Jobs of the embedded (in-process) queue, kept so a restart can resume them. */
export const queueJobs = pgTable(
  'queue_jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    state: text('state').notNull().default('waiting'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('queue_jobs_state_idx').on(t.state)],
);
