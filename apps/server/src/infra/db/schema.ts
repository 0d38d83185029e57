import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, updatedAt, users, workspaces } from './coreTables.js';

export { backupSettings, backups, restores } from './backupTables.js';
/** Users, VMs, workspaces and variables (coreTables.ts), and each area's own table files, re-exported for migrations. */
export { envVariables, users, vms, workspaces } from './coreTables.js';
/** The embedded adapters' own tables (key-value store, job queue), re-exported so migrations see them. */
export { kvEntries, queueJobs } from './embeddedAdapterTables.js';
export { previewSettings, previews } from './previewTables.js';

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

export interface StepRecord {
  name: string;
  title: string;
  description: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

export const deployments = pgTable(
  'deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: text('session_id').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    workspaceName: text('workspace_name').notNull(),
    workflowType: text('workflow_type').notNull().default('deploy'),
    owner: text('owner').notNull(),
    repo: text('repo').notNull(),
    branch: text('branch').notNull(),
    vmSize: text('vm_size').notNull(),
    subscriptionId: text('subscription_id'),
    status: text('status').notNull().default('queued'),
    currentStep: integer('current_step').notNull().default(0),
    steps: jsonb('steps').$type<StepRecord[]>().notNull().default([]),
    error: text('error'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    commitSha: text('commit_sha'),
    imageIds: jsonb('image_ids').$type<Record<string, string>>().notNull().default({}),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('deployments_workspace_idx').on(t.workspaceId),
    index('deployments_status_idx').on(t.status),
    // One deployment per workspace at a time, enforced by the database rather than by hope.
    uniqueIndex('deployments_one_active_idx')
      .on(t.userId, t.workspaceName)
      .where(sql`status in ('queued', 'running')`),
  ],
);

/** PostgreSQL bytea as a Buffer (PGlite hands back a Uint8Array, node-postgres a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Stored log output in chunks: one row per flush of one workspace, kind, service and container (build
 * logs: of one deployment); the lines themselves are in `payload` (logs/logChunkFormat.ts). A line's id is
 * `id * LINE_ID_STRIDE + first_index + position`; `first_index` grows when a prune trims the chunk's oldest lines.
 */
export const logChunks = pgTable(
  'log_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    workspaceName: text('workspace_name').notNull(),
    deploymentId: uuid('deployment_id'),
    kind: text('kind').notNull(),
    service: text('service').notNull().default(''),
    containerId: text('container_id').notNull().default(''),
    firstTs: timestamp('first_ts', { withTimezone: true }).notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true }).notNull(),
    firstIndex: integer('first_index').notNull().default(0),
    lineCount: integer('line_count').notNull(),
    byteCount: integer('byte_count').notNull(),
    payload: bytea('payload').notNull(),
  },
  (t) => [
    // History reads newest chunks first across services and redeploys, then merges their lines by time.
    index('log_chunks_workspace_ts_idx').on(t.userId, t.workspaceName, t.kind, t.lastTs),
    index('log_chunks_deployment_idx').on(t.deploymentId, t.id),
  ],
);

export const alerts = pgTable(
  'alerts',
  {
    id: text('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    alertType: text('alert_type').notNull(),
    severity: text('severity').notNull(),
    state: text('state').notNull().default('active'),
    service: text('service'),
    fingerprint: text('fingerprint').notNull(),
    triggeredAt: timestamp('triggered_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    index('alerts_workspace_idx').on(t.workspaceId, t.triggeredAt),
    uniqueIndex('alerts_one_active_idx').on(t.workspaceId, t.fingerprint).where(sql`state = 'active'`),
  ],
);

export const alertConfigs = pgTable('alert_configs', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  globalEnabled: boolean('global_enabled').notNull().default(true),
  /** Sinks with secret fields encrypted by the vault. */
  sinks: jsonb('sinks').$type<unknown[]>().notNull().default([]),
  rules: jsonb('rules').$type<unknown[]>().notNull().default([]),
  updatedAt: updatedAt(),
});

export const metricSamples = pgTable(
  'metric_samples',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    ts: timestamp('ts', { withTimezone: true }).notNull().defaultNow(),
    cpuPercent: integer('cpu_percent_x100').notNull(),
    memoryBytes: bigint('memory_bytes', { mode: 'number' }).notNull(),
    memoryPercent: integer('memory_percent_x100').notNull(),
  },
  (t) => [index('metric_samples_ws_idx').on(t.workspaceId, t.ts)],
);

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
