import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, users, workspaces } from './coreTables.js';

/** Deployments: one row per run, with its steps. */

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
