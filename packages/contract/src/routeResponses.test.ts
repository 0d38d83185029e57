import { describe, expect, it } from 'vitest';
import { ROUTE_LIST, ROUTES, type RouteName } from './routes.js';
import { VM_SIZES } from './vmSizes.js';

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
const user = {
  id: 'u1',
  github_id: null,
  login: 'operator',
  name: 'Operator',
  avatar_url: null,
  email: null,
  first_name: 'Local',
  last_name: 'Operator',
  whitelisted: true,
  profile_completed: true,
};
const emailStatus = { attempted: true, sent: true, recipient: 'ada@example.com', error: null };
const whitelistedEmail = { email: 'ada@example.com', notes: null, added_by: 'admin', added_at: at };
const repository = {
  id: 1,
  name: 'hello',
  full_name: 'octo/hello',
  owner: { login: 'octo', avatar_url: '' },
  private: false,
  description: null,
  language: 'Go',
  stargazers_count: 3,
  updated_at: at,
  default_branch: 'main',
  html_url: 'https://github.com/octo/hello',
};
const fileEntry = {
  type: 'file',
  name: 'docker-compose.yml',
  path: 'docker-compose.yml',
  sha: 'abc',
  size: 12,
  html_url: null,
  download_url: null,
  encoding: 'base64',
  content: 'c2VydmljZXM6',
};
const step = { name: 'provision-vm', description: 'Prepare the virtual machine', status: 'pending' };
const workflowStatus = {
  success: true,
  sessionId: 'sess_12345678',
  state: 'started',
  currentStep: 1,
  currentStepName: 'fetch-source',
  progress: 11,
  workflowComplete: false,
  totalSteps: 9,
  steps: [{ ...step, status: 'completed', started_at: at, finished_at: at, error: null }],
  error: null,
  data: {
    deployJobId: 'd1',
    deploymentData: { metadata: { service_url: null, url: null, urls: {}, output: '' } },
  },
};
const workspace = {
  workspace_name: 'hello',
  repo_url: 'https://github.com/octo/hello',
  repo_owner: 'octo',
  repo_name: 'hello',
  branch: 'main',
  status: 'live',
  vm_config: { vm_size: 'Standard_B2ats_v2' },
  service_urls: { web: 'https://web-hello.example.com' },
  created_at: at,
  docker_image_name: null,
  log_watcher: { last_error: null, last_error_time: null, status: 'active' },
};
const alert = {
  alert_id: 'a1',
  title: 'web crashed',
  description: 'exit code 1',
  alert_type: 'container_crashed',
  severity: 'critical',
  state: 'active',
  service: 'web',
  triggered_at: at,
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  resolved_by: null,
};
const alertConfig = {
  sinks: [
    { id: 's1', sink_type: 'telegram', enabled: true, config: { chat_id: '42', bot_token: '••••••••' } },
  ],
  rules: [{ alert_type: 'container_crashed', enabled: true }],
  global_enabled: true,
};
const summary = {
  subscription_id: 'sub1',
  plan_name: '1 GB RAM VM (2 vCPUs, 1 GB RAM)',
  plan_code: 'BASIC_1GB',
  status: 'trialing',
  vm_id: null,
  trial_end: at,
  next_renewal: null,
  created_at: at,
};
const invoice = {
  invoice_id: 'inv1',
  subscription_id: 'sub1',
  amount_usd: 12,
  currency: 'USD',
  status: 'paid',
  period_start: at,
  period_end: at,
  issued_at: at,
  paid_at: at,
};
const cpuStats = {
  timestamp: at,
  cpu: { usage: { total: 10, user: 6, system: 4 } },
  memory: { usage: 1, working_set: 1, rss: 1, cache: 0 },
  network: { rx_bytes: 0, tx_bytes: 0, interfaces: [] },
};
const logStatus = { status: 'available', file_size: 10, last_modified: at };

/** One answer per declared status of every route, as the server writes it. */
const SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  health: { 200: { status: 'ok' } },
  currentUser: { 200: user },
  logout: { 200: ok },
  completeProfile: { 200: { ...user, profile_completed: true } },
  enterpriseContact: { 201: { success: true, id: 'inq1' } },
  listRepositories: { 200: [repository] },
  getRepository: { 200: repository },
  repositoryRoot: { 200: [{ ...fileEntry, encoding: undefined, content: undefined, type: 'dir' }] },
  repositoryContents: { 200: fileEntry },
  listBranches: { 200: [{ name: 'main', commit: { sha: 'abc' } }] },
  listInstallations: {
    200: [
      {
        id: 1,
        account: { login: 'octo', avatar_url: '' },
        app_slug: 'slipway',
        target_type: 'User',
        repository_selection: 'all',
        html_url: null,
      },
    ],
  },
  vmSizes: { 200: VM_SIZES },
  workflowDefinition: { 200: { name: 'deployment', description: 'Build and run', steps: [step] } },
  startDeployment: { 200: { success: true, sessionId: 'sess_12345678', deploymentId: 'd1' } },
  deploymentStatus: { 200: workflowStatus },
  deploymentJob: {
    200: {
      id: 'd1',
      status: 'failed',
      workspace_name: 'hello',
      branch: 'main',
      commit_sha: null,
      health_check_failed: true,
      failed_services: ['web'],
      container_logs: { web: 'boom' },
      failure_reason: 'web did not answer',
      port_discovery_failed: false,
      expected_services: ['web'],
      service_urls: {},
      error: 'web did not answer',
    },
  },
  getSessionState: { 200: { exists: true, stateData: { step: 2 } } },
  saveSessionState: { 200: { success: true, sessionId: 'sess_12345678' } },
  deleteSessionState: { 200: { success: true, deleted: false } },
  extendSessionState: { 200: { extended: true } },
  listEnvVariables: { 200: { workspace_name: 'hello', variables: [{ key: 'A', value: 'x\ny' }], count: 1 } },
  uploadEnvVariables: { 200: { success: true, message: 'Saved', count: 1, added: 1, updated: 0 } },
  updateEnvVariable: { 200: { success: true, message: 'Saved', count: 1, added: 0, updated: 1 } },
  deleteEnvVariable: { 200: { success: true, deleted: 1 } },
  deleteEnvVariables: { 200: { success: true, deleted: 0 } },
  listWorkspaces: { 200: [workspace] },
  workspaceDetails: {
    200: {
      ...workspace,
      services: ['web'],
      containers: [{ id: 'abc', name: 'web-1', service: 'web', image: 'x', state: 'running', status: 'Up' }],
      latest_deployment: { id: 'd1', status: 'completed', commit_sha: 'abc', created_at: at },
    },
  },
  workspaceServices: { 200: { services: ['web', 'worker'] } },
  workspaceLogs: {
    200: {
      logs: [{ timestamp: at, service: 'web', message: '<script>', source: 'stdout', container_id: null }],
    },
  },
  deleteWorkspace: { 200: { success: true, message: 'Workspace hello deleted' } },
  systemHealthStatus: { 200: { system_health_deployed: true, message: 'Monitoring is active' } },
  systemInfo: {
    200: {
      system_info: {
        cpu_cores: 2,
        cpu_frequency_mhz: 2400,
        memory_total: 1024,
        network_interfaces: [{ name: 'eth0', rx_bytes: 1, tx_bytes: 2 }],
        cloud_provider: 'local',
        hostname: 'host',
      },
    },
  },
  vmHealthMetrics: {
    200: {
      vm_health: {
        cpu_usage_percent: 1.5,
        memory_used: 1,
        memory_total: 2,
        memory_usage_percent: 50,
        network_rx_bytes: 0,
        network_tx_bytes: 0,
        history: [{ ts: at, cpu: 1.5, memory: 50 }],
      },
    },
  },
  systemHealthContainers: {
    200: {
      containers: {
        web: {
          name: 'web',
          image: 'x',
          cpu_percent: 0,
          memory_usage: 1,
          memory_limit: 2,
          network_rx: 0,
          network_tx: 0,
        },
      },
    },
  },
  deploySystemHealth: { 200: { success: true, system_health_deployed: true, message: 'Deployed' } },
  activeAlerts: { 200: [alert] },
  recentAlerts: { 200: [] },
  alertStatistics: { 200: { total_alerts: 1, active_alerts: 1, resolved_alerts: 0, avg_response_time: 0 } },
  acknowledgeAlert: {
    200: { success: true, alert: { ...alert, acknowledged_at: at, acknowledged_by: 'user' } },
  },
  resolveAlert: {
    200: { success: true, alert: { ...alert, state: 'resolved', resolved_at: at, resolved_by: 'u' } },
  },
  getAlertConfig: { 200: alertConfig },
  saveAlertConfig: { 200: alertConfig },
  testAlertSink: { 200: { success: true, message: 'Test notification sent: delivered' } },
  billingPlans: {
    200: {
      mode: 'free-beta',
      currency: 'USD',
      plans: [
        {
          plan_code: 'BASIC_1GB',
          name: '1 GB',
          vm_size: 'Standard_B2ats_v2',
          price_usd: 12,
          specs: 's',
          description: 'd',
        },
      ],
    },
  },
  createSubscription: {
    200: { id: 'sub1', subscription_id: 'sub1', hosted_checkout_url: null, status: 'trialing' },
  },
  listSubscriptions: { 200: [summary] },
  getSubscription: {
    200: {
      ...summary,
      id: 'sub1',
      plan: { code: 'BASIC_1GB', name: '1 GB', price_usd: 12, currency: 'USD', interval: 'month' },
      workspace_name: 'hello',
      vm_size: 'Standard_B2ats_v2',
      repo_owner: 'octo',
      repo_name: 'hello',
      branch: 'main',
      provider: 'free-beta',
      hosted_checkout_url: null,
      cancelled_at: null,
    },
  },
  cancelSubscription: {
    200: {
      success: true,
      subscription_id: 'sub1',
      status: 'cancelled',
      cancelled_at: at,
      message: 'Cancelled',
    },
  },
  subscriptionInvoices: {
    200: {
      is_trial: true,
      message: 'Free during the beta',
      trial_end_date: at,
      subscription_status: 'trialing',
      invoices: [invoice],
    },
  },
  listInvoices: { 200: [invoice] },
  paypalWebhook: { 200: { event_id: 'WH-1', status: 'processed', result: 'activated' } },
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

describe('response schemas of the route table', () => {
  it('has a sample for every declared answer', () => {
    const missing = ROUTE_LIST.flatMap((definition) =>
      Object.keys(definition.responses)
        .filter((status) => SAMPLES[definition.name]?.[Number(status)] === undefined)
        .map((status) => `${definition.name} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  for (const definition of ROUTE_LIST) {
    for (const [status, schema] of Object.entries(definition.responses)) {
      it(`${definition.name} ${status} parses its sample`, () => {
        const result = schema.safeParse(SAMPLES[definition.name]?.[Number(status)]);
        expect(result.error?.issues ?? []).toEqual([]);
      });
    }
  }

  it('refuses fields the server must never send', () => {
    expect(ROUTES.currentUser.responses[200].safeParse({ ...user, github_token: 'gho_x' }).success).toBe(
      false,
    );
    const leaked = { ...alertConfig.sinks[0], config_sealed: { $vault: 'x' } };
    expect(ROUTES.getAlertConfig.responses[200].safeParse({ ...alertConfig, sinks: [leaked] }).success).toBe(
      false,
    );
  });

  it('refuses wrong types and values outside the spec', () => {
    expect(
      ROUTES.listWorkspaces.responses[200].safeParse([{ ...workspace, created_at: 'yesterday' }]).success,
    ).toBe(false);
    expect(ROUTES.activeAlerts.responses[200].safeParse([{ ...alert, severity: 'fatal' }]).success).toBe(
      false,
    );
    expect(ROUTES.getSessionState.responses[200].safeParse({ exists: true, stateData: null }).success).toBe(
      false,
    );
    expect(
      ROUTES.deploymentStatus.responses[200].safeParse({ ...workflowStatus, progress: 120 }).success,
    ).toBe(false);
  });

  it('lets cAdvisor fields Slipway does not read through', () => {
    const parsed = ROUTES.cadvisorMachine.responses[200].parse(SAMPLES.cadvisorMachine?.[200]);
    expect(parsed).toMatchObject({ extra_from_cadvisor: { topology: [] } });
  });
});
