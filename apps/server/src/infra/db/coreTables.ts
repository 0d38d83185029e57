import {
  type AnyPgColumn,
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * The tables most others reference — users, their VMs, workspaces and their variables — in a file of their own so
 * the areas' table files (previewTables.ts) can reference them without a cycle; schema.ts re-exports them.
 */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  githubId: bigint('github_id', { mode: 'number' }).unique(),
  login: text('login').notNull().unique(),
  name: text('name'),
  avatarUrl: text('avatar_url'),
  email: text('email'),
  firstName: text('first_name'),
  lastName: text('last_name'),
  whitelisted: boolean('whitelisted').notNull().default(false),
  onWaitingList: boolean('on_waiting_list').notNull().default(true),
  profileCompleted: boolean('profile_completed').notNull().default(false),
  /** The user's GitHub access token, encrypted by the vault. */
  githubTokenEnc: text('github_token_enc'),
  createdAt: createdAt(),
  lastLogin: timestamp('last_login', { withTimezone: true }),
});

export const vms = pgTable(
  'vms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    provider: text('provider').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    size: text('size').notNull(),
    location: text('location'),
    status: text('status').notNull().default('creating'),
    privateIp: text('private_ip'),
    publicIp: text('public_ip'),
    /** Provider-specific facts (resource ids, encrypted key references). Never sent to browsers. */
    providerData: jsonb('provider_data').notNull().default({}),
    /**
     * The workspace whose node this VM is, and which node (1 is `workspaces.vm_id`, the VM a one-node workspace
     * runs on; 2…5 the more VMs of a workspace on several nodes). A workspace removed leaves its VM's row without
     * it (set null), visible in the admin's VMs tab until the VM is deleted, rather than a cloud VM with no record.
     */
    workspaceId: uuid('workspace_id').references((): AnyPgColumn => workspaces.id, { onDelete: 'set null' }),
    nodeIndex: integer('node_index'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vms_workspace_node_idx').on(t.workspaceId, t.nodeIndex)],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    repoOwner: text('repo_owner').notNull(),
    repoName: text('repo_name').notNull(),
    repoUrl: text('repo_url').notNull(),
    branch: text('branch').notNull(),
    vmSize: text('vm_size').notNull(),
    vmId: uuid('vm_id').references(() => vms.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('created'),
    serviceUrls: jsonb('service_urls').$type<Record<string, string>>().notNull().default({}),
    /** Where the ingress reaches each published service: with `serviceUrls`, the routes the proxy must hold. */
    /** A replicated service's value lists every replica's upstream (one host port each). */
    serviceUpstreams: jsonb('service_upstreams')
      .$type<Record<string, string | string[]>>()
      .notNull()
      .default({}),
    /** Replicas per service set from the dashboard or the API; they override the Compose file's count. */
    serviceReplicas: jsonb('service_replicas').$type<Record<string, number>>().notNull().default({}),
    dockerImageName: text('docker_image_name'),
    lastError: text('last_error'),
    lastErrorTime: timestamp('last_error_time', { withTimezone: true }),
    /** Deploy on push: a push to `branch` starts a deployment (deploy-on-push/). */
    deployOnPush: boolean('deploy_on_push').notNull().default(false),
    /** When the last push not yet deployed arrived: a deployment starts once pushes stop for a moment. */
    pushPendingAt: timestamp('push_pending_at', { withTimezone: true }),
    /** Local mode: the branch head the watcher last acted on, so a commit is tried once, whatever its outcome. */
    pushSeenSha: text('push_seen_sha'),
    /** A preview's parent workspace (previews/ keeps the pull request it shows); null for any other workspace. */
    previewOf: uuid('preview_of'),
    /**
     * How many nodes (VMs of `vm_size`) the next deployment runs the workspace on: 1 is one VM with Compose, as
     * always; from 2 on, a Swarm across them. A preview stays on one.
     */
    nodeCount: integer('node_count').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('workspaces_user_name_idx').on(t.userId, t.name)],
);

/** Environment variables belong to (user, workspace name): they are entered before the first deploy. */
export const envVariables = pgTable(
  'env_variables',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceName: text('workspace_name').notNull(),
    key: text('key').notNull(),
    valueEnc: text('value_enc').notNull(),
    position: integer('position').notNull().default(0),
    /** Previews get this variable too: its preview value when there is one, else this one. */
    forPreviews: boolean('for_previews').notNull().default(false),
    /** The value previews get instead of production's, encrypted by the vault. */
    previewValueEnc: text('preview_value_enc'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workspaceName, t.key] })],
);
