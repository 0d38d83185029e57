import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { updatedAt, workspaces } from './coreTables.js';

/** Alerts, where they are sent, and the metric samples system health shows. */

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
