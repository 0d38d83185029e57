import type { TokenScope } from './apiTokens.js';
import { adminRoutes } from './routes/admin.js';
import type { RouteName } from './routes.js';

/**
 * Where a route names the workspace it touches, for tokens limited to some workspaces: a path parameter or a
 * body field holding its name, or a deployment's workflow session or id (the server looks its workspace up).
 */
export type WorkspaceLocator =
  | { from: 'params' | 'body'; key: string }
  | { from: 'session'; key: string }
  | { from: 'deployment'; key: string };

/**
 * What an API token needs to call a route:
 * - `public`: nothing — every route the table opens to anyone (`access: 'public'` or `'loopback'`), and only
 *   those: anyone may call it, and a token changes nothing;
 * - `never`: a person's session only — the admin panel, the wizard's saved progress, money, and the tokens
 *   themselves;
 * - a scope, and where the route's workspace is: a locator, `account` (it touches no workspace: allowed to
 *   tokens limited to some workspaces), `listed` (it lists workspaces: a limited token gets only its own, the
 *   handler narrowing the list by `workspaceLimit`) or `none` (it reaches across workspaces: refused to those
 *   tokens).
 */
export type TokenRule =
  | { scope: 'public' }
  | { scope: 'never' }
  | { scope: TokenScope; workspace: WorkspaceLocator | WorkspaceReach };

/** Where a route reaches when no single workspace is named: see TokenRule. */
export type WorkspaceReach = 'account' | 'listed' | 'none';

const PUBLIC = { scope: 'public' } as const satisfies TokenRule;
const NEVER = { scope: 'never' } as const satisfies TokenRule;
const named = (key: 'name' | 'workspace' | 'repo') => ({ from: 'params', key }) as const;
const read = (workspace: WorkspaceLocator | WorkspaceReach) => ({ scope: 'read', workspace }) as const;
const write = (workspace: WorkspaceLocator | WorkspaceReach) => ({ scope: 'write', workspace }) as const;
const deploy = (workspace: WorkspaceLocator) => ({ scope: 'deploy', workspace }) as const;
const bySession = { from: 'session', key: 'sessionId' } as const;

/** The admin panel refuses every token; its sign-in and the impersonation links are open to anyone. */
const adminOnly = Object.fromEntries(
  Object.entries(adminRoutes).map(([name, route]) => [name, route.access === 'public' ? PUBLIC : NEVER]),
) as { [N in keyof typeof adminRoutes]: TokenRule };

/**
 * The token rule of every route, by name: a route added to the table without one fails `tsc`. The tests run
 * every route against every scope (apiTokens.scopes.test.ts).
 */
export const TOKEN_RULES = {
  ...adminOnly,
  health: PUBLIC,
  publicConfig: PUBLIC,
  signInWithInstall: PUBLIC,
  signIn: PUBLIC,
  oauthCallback: PUBLIC,
  logout: PUBLIC,
  currentUser: read('account'),
  completeProfile: NEVER,
  enterpriseContact: PUBLIC,
  listRepositories: read('none'),
  getRepository: read('none'),
  repositoryRoot: read('none'),
  repositoryContents: read('none'),
  listBranches: read('none'),
  listInstallations: read('none'),
  vmSizes: PUBLIC,
  workflowDefinition: read('account'),
  startDeployment: deploy({ from: 'body', key: 'repo' }),
  deploymentStatus: read(bySession),
  deploymentStatusStream: read(bySession),
  cancelDeployment: deploy(bySession),
  workspaceRevisions: read(named('name')),
  rollbackWorkspace: deploy(named('name')),
  setServiceReplicas: deploy(named('name')),
  getDeployOnPush: read(named('name')),
  setDeployOnPush: write(named('name')),
  githubWebhook: PUBLIC,
  deploymentJob: read({ from: 'deployment', key: 'id' }),
  // The wizard's saved progress belongs to the browser session that fills it in.
  getSessionState: NEVER,
  saveSessionState: NEVER,
  deleteSessionState: NEVER,
  extendSessionState: NEVER,
  deploymentLogStream: read(named('repo')),
  listEnvVariables: { scope: 'secrets:read', workspace: named('workspace') },
  uploadEnvVariables: write(named('workspace')),
  updateEnvVariable: write(named('workspace')),
  deleteEnvVariable: write(named('workspace')),
  deleteEnvVariables: write(named('workspace')),
  listWorkspaces: read('listed'),
  workspaceDetails: read(named('name')),
  workspaceServices: read(named('name')),
  workspaceLogs: read(named('name')),
  workspaceLogStream: read(named('name')),
  deleteWorkspace: write(named('name')),
  systemHealthStatus: read(named('workspace')),
  systemInfo: read(named('workspace')),
  vmHealthMetrics: read(named('workspace')),
  systemHealthContainers: read(named('workspace')),
  deploySystemHealth: write(named('workspace')),
  activeAlerts: read(named('workspace')),
  recentAlerts: read(named('workspace')),
  alertStatistics: read(named('workspace')),
  acknowledgeAlert: write('none'),
  resolveAlert: write('none'),
  getAlertConfig: read(named('workspace')),
  saveAlertConfig: write(named('workspace')),
  testAlertSink: write(named('workspace')),
  billingPlans: read('account'),
  createSubscription: NEVER,
  listSubscriptions: read('none'),
  getSubscription: read('none'),
  cancelSubscription: NEVER,
  subscriptionInvoices: read('none'),
  listInvoices: read('none'),
  paypalWebhook: PUBLIC,
  listApiTokens: NEVER,
  createApiToken: NEVER,
  revokeApiToken: NEVER,
  listDomains: read(named('name')),
  addDomain: write(named('name')),
  verifyDomain: write(named('name')),
  removeDomain: write(named('name')),
  getPreviewSettings: read(named('name')),
  setPreviewSettings: write(named('name')),
  listPreviews: read(named('name')),
  redeployPreview: deploy(named('name')),
  approvePreview: deploy(named('name')),
  removePreview: write(named('name')),
  listPreviewVariables: read(named('name')),
  setPreviewVariable: write(named('name')),
  listBackups: read(named('name')),
  getBackup: read(named('name')),
  getRestore: read(named('name')),
  setBackupSettings: write(named('name')),
  exportBackupKey: { scope: 'secrets:read', workspace: named('name') },
  backUpNow: write(named('name')),
  // A restore overwrites the workspace's data: a deploy-scoped token may, a write-only one may not.
  startRestore: deploy(named('name')),
  // Caddy's question, on loopback: a token neither helps nor is needed.
  tlsPermission: PUBLIC,
  openApiDocument: PUBLIC,
  webApp: PUBLIC,
} as const satisfies Record<RouteName, TokenRule>;
