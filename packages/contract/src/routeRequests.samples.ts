/** Request samples for the route table's schemas: valid and invalid bodies, queries and params per route. */

import { type RequestSamples, tooLong } from './requestSampleTypes.js';
import { ADMIN_REQUEST_SAMPLES } from './routeRequests.adminSamples.js';
import { BACKUP_REQUEST_SAMPLES } from './routeRequests.backupSamples.js';
import { CUSTOM_DOMAIN_REQUEST_SAMPLES } from './routeRequests.customDomainSamples.js';
import { PREVIEW_REQUEST_SAMPLES } from './routeRequests.previewSamples.js';
import type { RouteName } from './routes.js';

const VALID_SESSION = 'sess_12345678';

/** Every route that takes a body or a query has samples for each; a new one fails the completeness test. */
export const REQUEST_SAMPLES: Partial<Record<RouteName, RequestSamples>> = {
  ...CUSTOM_DOMAIN_REQUEST_SAMPLES,
  ...PREVIEW_REQUEST_SAMPLES,
  ...BACKUP_REQUEST_SAMPLES,
  ...ADMIN_REQUEST_SAMPLES,
  signInWithInstall: {
    query: { valid: [{}, { as: 'waiting' }], invalid: [{ value: { as: 'admin' } }] },
  },
  signIn: { query: { valid: [{ as: 'operator' }], invalid: [{ value: { as: 1 } }] } },
  oauthCallback: {
    query: {
      valid: [
        { code: 'abc', state: 'xyz' },
        { code: 'abc', state: 'xyz', installation_id: '42' },
      ],
      invalid: [{ value: { code: 'abc' } }, { value: { code: '', state: 'xyz' } }],
    },
  },
  completeProfile: {
    body: {
      valid: [
        { firstName: 'Ada', lastName: 'Lovelace' },
        { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        { firstName: 'Ada', lastName: 'Lovelace', email: '' },
      ],
      invalid: [
        { value: { lastName: 'Lovelace' }, message: 'First name is required' },
        { value: { firstName: '  ', lastName: 'Lovelace' }, message: 'First name is required' },
        { value: { firstName: 'Ada', lastName: '' }, message: 'Last name is required' },
        {
          value: { firstName: 'Ada', lastName: 'Lovelace', email: 'not-an-email' },
          message: 'Please enter a valid email address',
        },
        { value: { firstName: tooLong(100), lastName: 'Lovelace' } },
        { value: { firstName: 1, lastName: 'Lovelace' }, message: 'First name is required' },
      ],
    },
  },
  enterpriseContact: {
    body: {
      valid: [
        { companyName: 'Acme', contactName: 'Ada', email: 'ada@acme.test' },
        {
          companyName: 'Acme',
          contactName: 'Ada',
          email: 'ada@acme.test',
          companySize: '11-50',
          timeline: '',
          submittedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      invalid: [
        { value: { contactName: 'Ada', email: 'ada@acme.test' } },
        { value: { companyName: 'Acme', contactName: 'Ada', email: 'nope' } },
        { value: { companyName: 'Acme', contactName: 'Ada', email: 'a@b.co', companySize: '5' } },
        { value: { companyName: 'Acme', contactName: 'Ada', email: 'a@b.co', useCase: tooLong(5000) } },
      ],
    },
  },
  repositoryRoot: {
    query: { valid: [{}, { ref: 'main' }], invalid: [{ value: { ref: '--upload-pack=x' } }] },
  },
  repositoryContents: {
    params: { valid: [{ owner: 'o', repo: 'r', '*': 'src/index.ts' }], invalid: [{ value: { owner: 'o' } }] },
    query: { valid: [{ ref: 'feature/x' }], invalid: [{ value: { ref: '' } }, { value: { ref: 'a\nb' } }] },
  },
  listBranches: {
    query: {
      valid: [{}, { page: '2', per_page: '100' }],
      invalid: [
        { value: { per_page: '101' }, message: 'The page size (per_page) must be between 1 and 100' },
        { value: { page: '0' }, message: 'Pages start at 1' },
        { value: { page: 'two' } },
      ],
    },
  },
  createApiToken: {
    body: {
      valid: [
        { name: 'ci', scopes: ['read', 'deploy'], expires_in_days: 90 },
        { name: 'forever', scopes: ['write'], expires_in_days: null, workspaces: ['shop'] },
      ],
      invalid: [
        { value: { name: '', scopes: ['read'], expires_in_days: null }, message: 'Give the token a name' },
        { value: { name: 'x', scopes: [], expires_in_days: null }, message: 'Choose at least one scope' },
        { value: { name: 'x', scopes: ['admin'], expires_in_days: null }, message: 'Unknown scope' },
        {
          value: { name: 'x', scopes: ['read'], expires_in_days: 0 },
          message: 'A token lasts at least a day',
        },
        { value: { name: 'x', scopes: ['read'] } },
      ],
    },
  },
  setDeployOnPush: {
    body: {
      valid: [{ enabled: true }, { enabled: false }],
      invalid: [{ value: { enabled: 'yes' } }, { value: {} }, { value: { enabled: true, branch: 'main' } }],
    },
  },
  setServiceReplicas: {
    body: {
      valid: [{ replicas: 3, sessionId: VALID_SESSION }],
      invalid: [
        { value: { replicas: 0, sessionId: VALID_SESSION } },
        { value: { replicas: 11, sessionId: VALID_SESSION } },
        { value: { replicas: 2.5, sessionId: VALID_SESSION } },
        { value: { replicas: 2 } },
      ],
    },
    params: {
      valid: [{ name: 'shop', service: 'web' }],
      invalid: [{ value: { name: 'shop', service: '../x' } }, { value: { name: 'shop', service: '-web' } }],
    },
  },
  rollbackWorkspace: {
    body: {
      valid: [{ sessionId: VALID_SESSION }],
      invalid: [{ value: { sessionId: 'short' } }, { value: {} }],
    },
    params: {
      valid: [{ name: 'shop', deploymentId: '6f1c1c3e-8a4e-4c1e-9a57-2d7c1f0b9a11' }],
      invalid: [{ value: { name: 'shop', deploymentId: '../x' } }],
    },
  },
  startDeployment: {
    body: {
      valid: [
        { sessionId: VALID_SESSION, owner: 'octo', repo: 'hello', branch: 'main' },
        {
          sessionId: VALID_SESSION,
          owner: 'octo',
          repo: 'hello.js',
          branch: 'feat/$(id);x',
          vmSize: 'Standard_B2als_v2',
          subscriptionId: null,
          workflowType: 'redeploy',
        },
      ],
      invalid: [
        { value: { sessionId: 'short', owner: 'octo', repo: 'hello', branch: 'main' } },
        { value: { sessionId: VALID_SESSION, owner: 'octo', repo: '..', branch: 'main' } },
        { value: { sessionId: VALID_SESSION, owner: '-octo', repo: 'hello', branch: 'main' } },
        {
          value: { sessionId: VALID_SESSION, owner: 'octo', repo: 'hello', branch: '--upload-pack=x' },
          message: 'Branch names may not start with "-"',
        },
        { value: { sessionId: VALID_SESSION, owner: 'octo', repo: 'hello', branch: 'a..b' } },
        {
          value: { sessionId: VALID_SESSION, owner: 'octo', repo: 'hello', branch: 'main', vmSize: 'huge' },
          message: 'Unknown VM size: choose Standard_B2ats_v2 or Standard_B2als_v2',
        },
        { value: { sessionId: VALID_SESSION, owner: 'octo', repo: 'hello' } },
      ],
    },
  },
  saveSessionState: {
    body: {
      valid: [{ sessionId: VALID_SESSION, stateData: { step: 2 } }],
      invalid: [
        { value: { sessionId: VALID_SESSION } },
        { value: { sessionId: 'bad id!', stateData: {} } },
        { value: { sessionId: VALID_SESSION, stateData: 'x' } },
      ],
    },
  },
  deploymentLogStream: {
    params: {
      valid: [{ owner: 'octo', repo: 'hello' }],
      invalid: [{ value: { owner: 'oc/to', repo: 'x' } }],
    },
    query: {
      valid: [{}, { log_type: 'service', initial_lines: '20', follow: 'false', service: 'web' }],
      invalid: [
        { value: { log_type: 'runtime' } },
        { value: { initial_lines: '1001' } },
        { value: { follow: 'yes' } },
        { value: { service: 'web;rm' } },
      ],
    },
  },
  uploadEnvVariables: {
    params: { valid: [{ workspace: 'hello' }], invalid: [{ value: { workspace: '..' } }] },
    body: {
      valid: [
        { variables: [] },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} that must reach the container unexpanded
        { variables: [{ key: 'DATABASE_URL', value: 'postgres://x\n$(id) "${HOME}"' }] },
      ],
      invalid: [
        { value: {}, message: 'Send variables as a list of {key, value}' },
        { value: { variables: [{ key: '1ABC', value: 'x' }] } },
        { value: { variables: [{ key: 'A', value: 'nul\u0000' }] } },
        { value: { variables: [{ key: 'A', value: 'x'.repeat(64 * 1024 + 1) }] } },
        { value: { variables: [{ key: 'A', value: 1 }] }, message: 'A variable value must be text' },
        {
          value: { variables: Array.from({ length: 201 }, (_, i) => ({ key: `K${i}`, value: '' })) },
          message: 'A workspace can hold at most 200 environment variables',
        },
      ],
    },
  },
  updateEnvVariable: {
    params: {
      valid: [{ workspace: 'hello', key: 'API_KEY' }],
      invalid: [{ value: { workspace: 'hello', key: 'API-KEY' } }],
    },
    body: {
      valid: [{ value: '' }, { value: 'multi\nline' }],
      invalid: [{ value: {} }, { value: { value: null } }],
    },
  },
  workspaceLogs: {
    query: {
      valid: [{}, { lines: '500', service: 'web' }],
      invalid: [{ value: { lines: '0' } }, { value: { lines: '5001' } }, { value: { lines: 'many' } }],
    },
  },
  workspaceLogStream: {
    query: {
      valid: [{}, { follow: '', initial_lines: '50', service: '' }, { follow: 'false' }],
      invalid: [{ value: { follow: 'maybe' } }, { value: { initial_lines: '-1' } }],
    },
  },
  recentAlerts: {
    query: {
      valid: [{}, { hours: '24' }],
      invalid: [{ value: { hours: '0' } }, { value: { hours: '2161' } }],
    },
  },
  alertStatistics: {
    query: { valid: [{ days: '7' }], invalid: [{ value: { days: '91' } }, { value: { days: 'week' } }] },
  },
  acknowledgeAlert: {
    body: {
      valid: [{}, { acknowledged_by: 'ada' }],
      invalid: [{ value: { acknowledged_by: '' } }, { value: { acknowledged_by: tooLong(100) } }],
    },
  },
  resolveAlert: {
    body: { valid: [{ resolved_by: 'user' }], invalid: [{ value: { resolved_by: 7 } }] },
  },
  saveAlertConfig: {
    body: {
      valid: [
        {},
        {
          sinks: [
            { sink_type: 'email', config: { to_email: 'ops@example.com' } },
            { sink_type: 'telegram', enabled: false, config: { chat_ids: ['42'], bot_token: '••••••••' } },
          ],
          rules: [{ alert_type: 'container_crashed', enabled: true, min_severity: 'error' }],
          global_enabled: true,
        },
      ],
      invalid: [
        { value: { sinks: [{ sink_type: 'email', config: {} }] }, message: 'Email address is required' },
        {
          value: { sinks: [{ sink_type: 'email', config: { to_email: 'ops' } }] },
          message: 'Please enter a valid email address',
        },
        {
          value: { sinks: [{ sink_type: 'telegram', config: { chat_ids: [''] } }] },
          message: 'At least one chat ID is required',
        },
        {
          value: { sinks: [{ sink_type: 'slack', config: {} }] },
          message: 'Channel type must be email or telegram',
        },
        { value: { global_enabled: 'yes' } },
        { value: { rules: [{ alert_type: 'x', min_severity: 'fatal' }] } },
      ],
    },
  },
  testAlertSink: {
    params: {
      valid: [{ workspace: 'hello', sink_type: 'telegram' }],
      invalid: [
        {
          value: { workspace: 'hello', sink_type: 'sms' },
          message: 'Channel type must be email or telegram',
        },
      ],
    },
    body: { valid: [{}, { config: { to_email: 'a@b.co' } }], invalid: [{ value: { config: 'x' } }] },
  },
  createSubscription: {
    params: { valid: [{ id: 'hello' }], invalid: [{ value: { id: '..' } }] },
    body: {
      valid: [
        {
          plan_code: 'BASIC_1GB',
          idempotency_key: 'key-12345678',
          metadata: { repo_owner: 'octo', repo_name: 'hello', branch: 'main', vm_size: 'Standard_B2ats_v2' },
        },
      ],
      invalid: [
        {
          value: { plan_code: 'GOLD', idempotency_key: 'key-12345678', metadata: {} },
          message: 'Unknown plan: choose BASIC_1GB or PRO_4GB',
        },
        {
          value: {
            plan_code: 'PRO_4GB',
            idempotency_key: 'short',
            metadata: {
              repo_owner: 'octo',
              repo_name: 'hello',
              branch: 'main',
              vm_size: 'Standard_B2als_v2',
            },
          },
          message: 'The idempotency_key must be at least 8 characters',
        },
        {
          value: { plan_code: 'PRO_4GB', idempotency_key: 'key-12345678' },
          message: 'Missing deployment configuration',
        },
      ],
    },
  },
  cancelSubscription: {
    body: {
      valid: [{}, { cancel_immediately: false, reason: 'moving', idempotency_key: 'cancel-123456' }],
      invalid: [{ value: { cancel_immediately: 'yes' } }, { value: { reason: tooLong(500) } }],
    },
  },
};
