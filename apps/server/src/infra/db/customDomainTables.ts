import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, workspaces } from './coreTables.js';

/** A workspace's own domains. */

/**
 * A workspace's own domain for one of its services. Several workspaces may claim a name while none has
 * proven it (each with its own TXT token, so a squatter cannot block the owner); once one has verified it,
 * no other may (the partial unique index), until it is removed.
 */
export const customDomains = pgTable(
  'custom_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Normalised: lower case, no trailing dot, punycode. */
    domain: text('domain').notNull(),
    service: text('service').notNull(),
    /** The value expected at `_slipway-challenge.{domain}`: random per domain and workspace. */
    challengeToken: text('challenge_token').notNull(),
    status: text('status').notNull().default('pending_dns'),
    cause: text('cause'),
    redirectWww: boolean('redirect_www').notNull().default(false),
    /** Checks failed in a row: the background check backs off with it. */
    failedChecks: integer('failed_checks').notNull().default(0),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    retryAfter: timestamp('retry_after', { withTimezone: true }),
    certificateIssuer: text('certificate_issuer'),
    certificateNotAfter: timestamp('certificate_not_after', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('custom_domains_workspace_domain_idx').on(table.workspaceId, table.domain),
    uniqueIndex('custom_domains_verified_idx').on(table.domain).where(sql`${table.verifiedAt} is not null`),
    index('custom_domains_next_check_idx').on(table.nextCheckAt),
  ],
);
