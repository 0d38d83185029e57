import { bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users } from './coreTables.js';

/** Who may sign in and what was done: the beta whitelist, enterprise inquiries, the audit trail, API tokens. */

export const emailWhitelist = pgTable('email_whitelist', {
  email: text('email').primaryKey(),
  notes: text('notes'),
  addedBy: text('added_by').notNull(),
  addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
});

export const enterpriseInquiries = pgTable('enterprise_inquiries', {
  id: uuid('id').primaryKey().defaultRandom(),
  companyName: text('company_name').notNull(),
  contactName: text('contact_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone'),
  companySize: text('company_size'),
  industry: text('industry'),
  useCase: text('use_case'),
  timeline: text('timeline'),
  requirements: text('requirements'),
  submittedAt: text('submitted_at'),
  createdAt: createdAt(),
});

export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  target: text('target'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
});

/** API tokens: a user's keys for scripts and CI. Only the token's SHA-256 is kept; revoked ones stay listed in the audit log. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    /** Workspace names it may touch; null: all of its owner's. */
    workspaces: jsonb('workspaces').$type<string[] | null>(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('api_tokens_hash_idx').on(table.tokenHash),
    index('api_tokens_user_idx').on(table.userId),
  ],
);
