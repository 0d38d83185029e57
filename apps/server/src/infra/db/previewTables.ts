import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt, workspaces } from './coreTables.js';

/** Workspace Settings → Previews; a workspace without a row has the defaults (previews off). */
export const previewSettings = pgTable('preview_settings', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull(),
  vmSize: text('vm_size').notNull(),
  maxRunning: integer('max_running').notNull(),
  inactivityDays: integer('inactivity_days').notNull(),
  updatedAt: updatedAt(),
});

/**
 * One pull request of a workspace and the preview workspace that shows it (`pr-{number}-{workspace}`, made by its
 * first deployment). `pendingSha` is a head commit not yet deployed; `approvedSha` the one commit someone with
 * write access approved, for a pull request that needs it.
 */
export const previews = pgTable(
  'previews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    parentId: uuid('parent_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    number: integer('number').notNull(),
    title: text('title').notNull(),
    branch: text('branch').notNull(),
    /** What the deployment fetches: `pr/7` in local mode, `refs/pull/7/head` of the base repository on GitHub. */
    headRef: text('head_ref').notNull(),
    headSha: text('head_sha').notNull(),
    author: text('author').notNull(),
    fromFork: boolean('from_fork').notNull().default(false),
    needsApproval: boolean('needs_approval').notNull().default(false),
    approvedSha: text('approved_sha'),
    pendingSha: text('pending_sha'),
    state: text('state').notNull(),
    cause: text('cause'),
    deploymentId: uuid('deployment_id'),
    pullRequestUrl: text('pull_request_url'),
    /** The one GitHub comment showing its links and state, edited in place. */
    commentId: bigint('comment_id', { mode: 'number' }),
    /** What the comment and the commit status last said, so GitHub is written only when it changes. */
    reportedState: text('reported_state'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('previews_parent_number_idx').on(t.parentId, t.number),
    index('previews_state_idx').on(t.state),
  ],
);
