import { z } from 'zod';
import { serviceUrlsSchema, successMessageSchema, successSchema, timestampSchema } from './schemaKit.js';
import { isValidEmail } from './users.js';

/** Request and response shapes of the admin panel (`/api/admin/*`). */

export const adminAuthRequestSchema = z.object({
  adminPassword: z
    .string({ error: 'Enter the admin password' })
    .min(1, { error: 'Enter the admin password' })
    .max(1024, { error: 'Invalid admin password' }),
});

export const REDIS_FLUSH_TYPES = ['sessions', 'jobs', 'workflows', 'all'] as const;
export type RedisFlushType = (typeof REDIS_FLUSH_TYPES)[number];
export const redisFlushRequestSchema = z.object({
  type: z.enum(REDIS_FLUSH_TYPES, { error: 'The type must be one of sessions, jobs, workflows or all' }),
});

export const addWhitelistEmailRequestSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .toLowerCase()
    .min(1, { error: 'Email is required' })
    .max(254, { error: 'Please enter a valid email address' })
    .refine(isValidEmail, { error: 'Please enter a valid email address' }),
  notes: z
    .string()
    .trim()
    .max(1000, { error: 'Notes must be at most 1000 characters' })
    .nullish()
    .transform((value) => value || null),
  added_by: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((value) => value || 'admin'),
});

const userIds = z.array(z.string().max(64)).min(1, { error: 'Choose at least one user' }).max(500, {
  error: 'At most 500 users at a time',
});
/** The web app sends a bare array of ids; `{user_ids: [...]}` is accepted too. */
export const bulkWhitelistRequestSchema = z.union([userIds, z.object({ user_ids: userIds })]);

export const adminUserSchema = z.strictObject({
  id: z.string(),
  github_id: z.number().nullable(),
  login: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  avatar_url: z.string().nullable(),
  whitelisted: z.boolean(),
  on_waiting_list: z.boolean(),
  created_at: timestampSchema,
  last_login: timestampSchema.nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = z.strictObject({
  users: z.array(adminUserSchema),
  total: z.number().int(),
});
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const emailStatusSchema = z.strictObject({
  attempted: z.boolean(),
  sent: z.boolean(),
  recipient: z.string().nullable(),
  error: z.string().nullable(),
  note: z.string().optional(),
});
export type EmailStatus = z.infer<typeof emailStatusSchema>;

export const whitelistUserResultSchema = successSchema.extend({
  user: adminUserSchema,
  email_status: emailStatusSchema,
});
export type WhitelistUserResult = z.infer<typeof whitelistUserResultSchema>;

/** DELETE /api/admin/users/{id}/whitelist. */
export const removeFromWhitelistResultSchema = successSchema.extend({ user: adminUserSchema });

export const bulkWhitelistResultSchema = z.strictObject({
  results: z.array(
    z.strictObject({
      user_id: z.string(),
      login: z.string().optional(),
      status: z.enum(['success', 'error']),
      email_status: emailStatusSchema.optional(),
      error: z.string().optional(),
    }),
  ),
  summary: z.strictObject({
    total: z.number().int(),
    whitelisted: z.number().int(),
    failed: z.number().int(),
    emails_sent: z.number().int(),
    emails_failed: z.number().int(),
    no_email: z.number().int(),
  }),
});
export type BulkWhitelistResult = z.infer<typeof bulkWhitelistResultSchema>;

export const whitelistedEmailSchema = z.strictObject({
  email: z.string(),
  notes: z.string().nullable(),
  added_by: z.string(),
  added_at: timestampSchema,
});
export type WhitelistedEmail = z.infer<typeof whitelistedEmailSchema>;

export const whitelistedEmailListSchema = z.strictObject({
  emails: z.array(whitelistedEmailSchema),
  total: z.number().int(),
});
export const addWhitelistEmailResultSchema = successSchema.extend({
  email: whitelistedEmailSchema,
  /** Logins of users already waiting with this email, let in now. */
  whitelisted_users: z.array(z.string()),
});
export const removeWhitelistEmailResultSchema = successSchema.extend({ email: z.string() });

const count = z.number().int().min(0);
export const adminStatsSchema = z.strictObject({
  users: z.strictObject({ total: count, whitelisted: count }),
  vms: z.strictObject({ running: count, total: count }),
  workspaces: z.strictObject({ total: count, active: count }),
  jobs: z.strictObject({ recent_total: count, recent_failed: count }),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const adminVmSchema = z.strictObject({
  vm_name: z.string(),
  username: z.string().nullable(),
  workspace_name: z.string().nullable(),
  /** 'VM running' when running; otherwise `VM {state}`. */
  status: z.string(),
  size: z.string(),
  location: z.string().nullable(),
  private_ip: z.string().nullable(),
  public_ip: z.string().nullable(),
  created_at: timestampSchema,
});
export type AdminVm = z.infer<typeof adminVmSchema>;
export const adminVmListSchema = z.strictObject({ total_vms: count, vms: z.array(adminVmSchema) });

export const adminWorkspaceSchema = z.strictObject({
  username: z.string(),
  workspace_name: z.string(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  service_urls: serviceUrlsSchema,
  docker_image_name: z.string().nullable(),
  log_watcher_status: z.enum(['active', 'inactive']),
  deployed_versions: z.array(
    z.strictObject({
      deployment_id: z.string(),
      commit_sha: z.string().nullable(),
      deployed_at: timestampSchema,
      branch: z.string(),
    }),
  ),
});
export type AdminWorkspace = z.infer<typeof adminWorkspaceSchema>;
export const adminWorkspaceListSchema = z.strictObject({
  total_workspaces: count,
  workspaces: z.array(adminWorkspaceSchema),
});

/** The audit trail: API tokens created, revoked and refused, impersonation links issued and used. */
export const AUDIT_LOG_MAX_ENTRIES = 500;
const auditLimitError = { error: `The limit must be a number from 1 to ${AUDIT_LOG_MAX_ENTRIES}` };
export const auditLogQuerySchema = z.object({
  limit: z.coerce
    .number(auditLimitError)
    .int(auditLimitError)
    .min(1, auditLimitError)
    .max(AUDIT_LOG_MAX_ENTRIES, auditLimitError)
    .default(100),
});
export const auditLogEntrySchema = z.strictObject({
  id: z.number().int(),
  /** Who did it: a login, `admin`, or `token:{id}` for a token's refused use. */
  actor: z.string(),
  /** What happened, `{area}.{event}`: `api_token.created`, `impersonation.session_started`. */
  action: z.string(),
  /** Whom it concerns: a user id, when there is one. */
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  at: timestampSchema,
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;
export const auditLogSchema = z.strictObject({ entries: z.array(auditLogEntrySchema) });

export const SYSTEM_LOG_SERVICES = ['backend', 'frontend'] as const;
export type SystemLogService = (typeof SYSTEM_LOG_SERVICES)[number];
export const systemLogStatusSchema = z.strictObject({
  status: z.enum(['available', 'missing']),
  file_size: count,
  last_modified: timestampSchema.nullable(),
});
export type SystemLogStatus = z.infer<typeof systemLogStatusSchema>;
export const systemLogServicesSchema = z.strictObject({
  services: z.strictObject({ backend: systemLogStatusSchema, frontend: systemLogStatusSchema }),
});
export const systemLogParamsSchema = z.object({
  service: z.enum(SYSTEM_LOG_SERVICES, { error: 'Unknown log service: use backend or frontend' }),
});
export const systemLogTailSchema = z.strictObject({
  service: z.enum(SYSTEM_LOG_SERVICES),
  logs: z.array(z.string()),
});
export const systemLogQuerySchema = z.object({
  lines: z.coerce.number().int().min(1).max(1000).default(100),
});

export const redisInfoSchema = z.strictObject({
  connected: z.boolean(),
  status: z.string(),
  total_keys: count,
  key_counts: z.strictObject({ sessions: count, jobs: count, workflows: count, other: count }),
  info: z.string(),
});
export type RedisInfo = z.infer<typeof redisInfoSchema>;
export const redisFlushResultSchema = successMessageSchema.extend({ flushed: count });

export const impersonationResultSchema = z.strictObject({
  user: z.strictObject({
    login: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
  }),
  impersonation_token: z.string(),
  /** Seconds. */
  expires_in: z.number().int().positive(),
  /** Opening this address signs the browser in as the user (once). */
  impersonation_url: z.string(),
});
export type ImpersonationResult = z.infer<typeof impersonationResultSchema>;
/** The token of an impersonation link, as a query (GET) or a body (POST). */
export const impersonationTokenSchema = z.object({
  token: z.string({ error: 'The impersonation token is missing' }).min(1).max(128),
});
