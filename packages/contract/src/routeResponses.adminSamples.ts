import type { RouteName } from './routes.js';

const at = '2026-11-23T18:00:00.000Z';
const ok = { success: true } as const;

const adminUser = {
  id: 'u1',
  github_id: 42,
  login: 'ada',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  avatar_url: null,
  whitelisted: true,
  on_waiting_list: false,
  created_at: at,
  last_login: null,
};
const emailStatus = { attempted: true, sent: true, recipient: 'ada@example.com', error: null };
const whitelistedEmail = { email: 'ada@example.com', notes: null, added_by: 'admin', added_at: at };
const cpuStats = {
  timestamp: at,
  cpu: { usage: { total: 10, user: 6, system: 4 } },
  memory: { usage: 1, working_set: 1, rss: 1, cache: 0 },
  network: { rx_bytes: 0, tx_bytes: 0, interfaces: [] },
};
const logStatus = { status: 'available', file_size: 10, last_modified: at };

/** The admin panel's answers as the server writes them. */
export const ADMIN_RESPONSE_SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  adminSignIn: { 200: ok },
  adminSessionStatus: { 200: { isAdmin: false } },
  adminSignOut: { 200: ok },
  adminStats: {
    200: {
      users: { total: 2, whitelisted: 1 },
      vms: { running: 1, total: 1 },
      workspaces: { total: 1, active: 1 },
      jobs: { recent_total: 3, recent_failed: 1 },
    },
  },
  adminUsers: { 200: { users: [adminUser], total: 1 } },
  adminWaitingList: { 200: { users: [], total: 0 } },
  adminWhitelistedUsers: { 200: { users: [adminUser], total: 1 } },
  whitelistUser: { 200: { success: true, user: adminUser, email_status: emailStatus } },
  removeFromWhitelist: { 200: { success: true, user: { ...adminUser, whitelisted: false } } },
  bulkWhitelist: {
    200: {
      results: [
        { user_id: 'u1', login: 'ada', status: 'success', email_status: emailStatus },
        { user_id: 'u2', status: 'error', error: 'User not found' },
      ],
      summary: { total: 2, whitelisted: 1, failed: 1, emails_sent: 1, emails_failed: 0, no_email: 0 },
    },
  },
  whitelistEmails: { 200: { emails: [whitelistedEmail], total: 1 } },
  addWhitelistEmail: { 200: { success: true, email: whitelistedEmail, whitelisted_users: ['ada'] } },
  removeWhitelistEmail: { 200: { success: true, email: 'ada@example.com' } },
  adminVms: {
    200: {
      total_vms: 1,
      vms: [
        {
          vm_name: 'vm-1',
          username: 'ada',
          workspace_name: 'hello',
          status: 'VM running',
          size: 'Standard_B2ats_v2',
          location: null,
          private_ip: null,
          public_ip: null,
          created_at: at,
          node: 1,
        },
      ],
    },
  },
  deleteVm: { 200: { success: true, message: 'VM vm-1 deleted' } },
  adminWorkspaces: {
    200: {
      total_workspaces: 1,
      workspaces: [
        {
          username: 'ada',
          workspace_name: 'hello',
          created_at: at,
          updated_at: at,
          service_urls: {},
          docker_image_name: null,
          log_watcher_status: 'active',
          deployed_versions: [{ deployment_id: 'd1', commit_sha: null, deployed_at: at, branch: 'main' }],
        },
      ],
    },
  },
  systemLogs: { 200: { services: { backend: logStatus, frontend: { ...logStatus, last_modified: null } } } },
  systemLogTail: { 200: { service: 'backend', logs: ['line 1', 'line 2'] } },
  auditLog: {
    200: {
      entries: [
        {
          id: 2,
          actor: 'ada',
          action: 'api_token.revoked',
          target: 'u1',
          detail: { token_id: '0b5c7f5e-1c1d-4f7e-9a51-3f0d1a2b3c4d', name: 'ci' },
          at,
        },
        { id: 1, actor: 'admin', action: 'impersonation.token_issued', target: null, detail: {}, at },
      ],
    },
  },
  redisInfo: {
    200: {
      connected: true,
      status: 'connected',
      total_keys: 3,
      key_counts: { sessions: 1, jobs: 1, workflows: 1, other: 0 },
      info: 'redis_version:7',
    },
  },
  redisFlush: { 200: { success: true, flushed: 2, message: 'Flushed 2 keys' } },
  impersonate: {
    200: {
      user: { login: 'ada', first_name: 'Ada', last_name: null },
      impersonation_token: 'tok',
      expires_in: 300,
      impersonation_url: '/api/auth/impersonate?token=tok',
    },
  },
  cadvisorMachine: {
    200: {
      timestamp: at,
      num_cores: 2,
      cpu_frequency_khz: 2_400_000,
      memory_capacity: 1024,
      machine_id: 'm',
      system_uuid: 's',
      boot_id: 'b',
      extra_from_cadvisor: { topology: [] },
    },
  },
  cadvisorContainers: {
    200: {
      name: '/',
      spec: { has_cpu: true },
      stats: [cpuStats],
      subcontainers: [
        { name: '/docker/abc', spec: { image: 'x' }, stats: [cpuStats] },
        { name: '/system.slice' },
      ],
    },
  },
};
