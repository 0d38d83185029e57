import { buildOpenApiDocument } from './openapi.js';
import { ADMIN_RESPONSE_SAMPLES } from './routeResponses.adminSamples.js';
import { BACKUP_RESPONSE_SAMPLES } from './routeResponses.backupSamples.js';
import { CUSTOM_DOMAIN_RESPONSE_SAMPLES } from './routeResponses.customDomainSamples.js';
import { PREVIEW_RESPONSE_SAMPLES } from './routeResponses.previewSamples.js';
import type { RouteName } from './routes.js';
import { VM_SIZES } from './vmSizes.js';

/** Answers as the server writes them, for the response schema tests. */
const at = '2026-11-23T18:00:00.000Z';
const ok = { success: true } as const;

/** One API token as listed and as created. */
const API_TOKEN_SAMPLE = {
  id: '0b5c7f5e-1c1d-4f7e-9a51-3f0d1a2b3c4d',
  name: 'ci',
  prefix: 'slw_AbCd',
  scopes: ['read', 'deploy'],
  workspaces: null,
  created_at: '2026-11-27T12:00:00.000Z',
  expires_at: '2027-02-25T12:00:00.000Z',
  last_used_at: null,
};

export const user = {
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
export const workflowStatus = {
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
export const workspace = {
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
  node_count: 1,
  nodes: [{ index: 1, state: 'ready', role: null, leaving: false, message: null }],
};
/** Three nodes: one lost, one ready, one not made yet. */
const workspaceNodes = {
  node_count: 3,
  nodes: [
    { index: 1, state: 'ready', role: 'manager', leaving: false, message: null },
    {
      index: 2,
      state: 'lost',
      role: 'manager',
      leaving: false,
      message: "Node 2's engine did not answer within 2 s",
    },
    {
      index: 3,
      state: 'pending',
      role: null,
      leaving: false,
      message: 'Node 3 gets its VM at the next deployment',
    },
  ],
};
export const alert = {
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
export const alertConfig = {
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
  nodes: 1,
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

/** One answer per declared status of every route, as the server writes it. */
export const RESPONSE_SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  health: { 200: { status: 'ok' } },
  publicConfig: { 200: { payments: 'free_beta', demo_video_url: null } },
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
  cancelDeployment: { 200: { success: true, message: 'Deployment cancelled' } },
  workspaceRevisions: {
    200: {
      owner: 'octocat',
      repo: 'shop',
      kept: 5,
      revisions: [
        {
          deployment_id: '6f1c1c3e-8a4e-4c1e-9a57-2d7c1f0b9a11',
          commit_sha: '9fceb02d0ae598e95dc970b74767f19372d61af8',
          branch: 'main',
          trigger: 'rollback',
          rollback_of: '1b4f0e98-51c3-4b3c-8f6e-0a9d2f7e6c55',
          deployed_by: 'octocat',
          deployed_at: '2026-11-24T10:00:00.000Z',
          duration_seconds: 4.2,
          current: true,
          can_roll_back: true,
        },
      ],
    },
  },
  setServiceReplicas: { 200: { success: true, sessionId: 'sess_12345678', deploymentId: 'd3' } },
  rollbackWorkspace: { 200: { success: true, sessionId: 'sess_12345678', deploymentId: 'd2' } },
  listApiTokens: {
    200: [API_TOKEN_SAMPLE],
  },
  createApiToken: {
    201: {
      token: 'slw_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd',
      api_token: API_TOKEN_SAMPLE,
    },
  },
  revokeApiToken: { 200: { success: true, message: 'Token ci revoked' } },
  getDeployOnPush: { 200: { enabled: true } },
  setDeployOnPush: { 200: { enabled: false } },
  githubWebhook: {
    200: { delivery_id: '72d3162e-cc78-11e3-81ab-4c9367dc0958', status: 'queued', workspaces: 1 },
  },
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
      service_states: [
        {
          service: 'web',
          state: 'exited',
          exit_code: 3,
          url: null,
          message: "Service 'web' exited with code 3",
        },
        { service: 'db', state: 'healthy', exit_code: null, url: null, message: null },
      ],
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
  workspaceNodes: { 200: workspaceNodes },
  setWorkspaceNodes: { 200: workspaceNodes },
  workspaceDetails: {
    200: {
      ...workspace,
      services: ['web'],
      containers: [{ id: 'abc', name: 'web-1', service: 'web', image: 'x', state: 'running', status: 'Up' }],
      service_states: [
        {
          service: 'web',
          state: 'healthy',
          exit_code: null,
          url: 'https://web-shop.example.com',
          message: null,
        },
        { service: 'migrate', state: 'completed', exit_code: 0, url: null, message: null },
      ],
      latest_deployment: {
        id: 'd1',
        status: 'completed',
        commit_sha: 'abc',
        trigger: 'push',
        created_at: at,
      },
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
      monthly_price_usd: 12,
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
  ...ADMIN_RESPONSE_SAMPLES,
  ...CUSTOM_DOMAIN_RESPONSE_SAMPLES,
  ...PREVIEW_RESPONSE_SAMPLES,
  ...BACKUP_RESPONSE_SAMPLES,
  openApiDocument: { 200: buildOpenApiDocument() },
};
