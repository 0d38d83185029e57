import { z } from 'zod';
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
  type: z.enum(REDIS_FLUSH_TYPES, { error: 'type must be one of sessions, jobs, workflows or all' }),
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

export interface AdminUser {
  id: string;
  github_id: number | null;
  login: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  avatar_url: string | null;
  whitelisted: boolean;
  on_waiting_list: boolean;
  created_at: string;
  last_login: string | null;
}
export interface AdminUserList {
  users: AdminUser[];
  total: number;
}

export interface EmailStatus {
  attempted: boolean;
  sent: boolean;
  recipient: string | null;
  error: string | null;
  note?: string;
}
export interface WhitelistUserResult {
  success: true;
  user: AdminUser;
  email_status: EmailStatus;
}
export interface BulkWhitelistResult {
  results: {
    user_id: string;
    login?: string;
    status: 'success' | 'error';
    email_status?: EmailStatus;
    error?: string;
  }[];
  summary: {
    total: number;
    whitelisted: number;
    failed: number;
    emails_sent: number;
    emails_failed: number;
    no_email: number;
  };
}

export interface WhitelistedEmail {
  email: string;
  notes: string | null;
  added_by: string;
  added_at: string;
}

export interface AdminStats {
  users: { total: number; whitelisted: number };
  vms: { running: number; total: number };
  workspaces: { total: number; active: number };
  jobs: { recent_total: number; recent_failed: number };
}

export interface AdminVm {
  vm_name: string;
  username: string | null;
  workspace_name: string | null;
  /** 'VM running' when running; otherwise `VM {state}`. */
  status: string;
  size: string;
  location: string | null;
  private_ip: string | null;
  public_ip: string | null;
  created_at: string;
}

export interface AdminWorkspace {
  username: string;
  workspace_name: string;
  created_at: string;
  updated_at: string;
  service_urls: Record<string, string>;
  docker_image_name: string | null;
  log_watcher_status: 'active' | 'inactive';
  deployed_versions: {
    deployment_id: string;
    commit_sha: string | null;
    deployed_at: string;
    branch: string;
  }[];
}

export const SYSTEM_LOG_SERVICES = ['backend', 'frontend'] as const;
export type SystemLogService = (typeof SYSTEM_LOG_SERVICES)[number];
export interface SystemLogStatus {
  status: 'available' | 'missing';
  file_size: number;
  last_modified: string | null;
}
export const systemLogQuerySchema = z.object({
  lines: z.coerce.number().int().min(1).max(1000).default(100),
});

export interface RedisInfo {
  connected: boolean;
  status: string;
  total_keys: number;
  key_counts: { sessions: number; jobs: number; workflows: number; other: number };
  info: string;
}

export interface ImpersonationResult {
  user: { login: string; first_name: string | null; last_name: string | null };
  impersonation_token: string;
  /** Seconds. */
  expires_in: number;
  /** Opening this address signs the browser in as the user (once). */
  impersonation_url: string;
}

/** cAdvisor v1.3 MachineInfo (the fields Slipway fills; a real cAdvisor sends more). */
export interface CadvisorMachineInfo {
  timestamp: string;
  num_cores: number;
  num_physical_cores?: number;
  num_sockets?: number;
  cpu_frequency_khz: number;
  memory_capacity: number;
  machine_id: string;
  system_uuid: string;
  boot_id: string;
  /** Epoch seconds. */
  boot_time?: number;
  /** Not in cAdvisor's shape: the Docker host's name. */
  hostname?: string;
  [extra: string]: unknown;
}

/** One cAdvisor v1.3 ContainerStats sample. Counters are cumulative (cpu in nanoseconds). */
export interface CadvisorContainerStats {
  timestamp: string;
  cpu: { usage: { total: number; per_cpu_usage?: number[]; user: number; system: number } };
  memory: { usage: number; working_set: number; rss: number; cache: number; max_usage?: number };
  network: {
    rx_bytes: number;
    tx_bytes: number;
    interfaces: { name: string; rx_bytes: number; tx_bytes: number }[];
  };
}

/** The workspace, Compose service and owner of a container, from its labels and the database. */
export interface SlipwayContainerOwner {
  workspace: string | null;
  service: string | null;
  owner: string | null;
}

export interface CadvisorContainerInfo {
  name: string;
  id?: string;
  aliases?: string[];
  namespace?: string;
  labels?: Record<string, string>;
  spec: {
    creation_time?: string;
    image?: string;
    has_cpu?: boolean;
    has_memory?: boolean;
    has_network?: boolean;
    memory?: { limit: number };
    labels?: Record<string, string>;
  };
  stats: CadvisorContainerStats[];
  /** Added by Slipway's admin proxy: whose container this is (null for containers Slipway did not start). */
  slipway?: SlipwayContainerOwner;
  /**
   * cAdvisor lists only names here. Slipway's `/containers` fills each subcontainer in full (spec and
   * stats), so one call gives the System Monitoring tab every container's numbers.
   */
  subcontainers?: (CadvisorContainerInfo | { name: string })[];
}
