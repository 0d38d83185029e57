// Generated from the route table (routes.ts) by scripts/routeEndpoints.ts: run `npm run routes`, do not edit.
import type { RouteName, Routes } from './routes.js';

/** A route's method and path: what a browser needs to call it. */
export type RouteEndpoint<N extends RouteName> = {
  readonly method: Routes[N]['method'];
  readonly path: Routes[N]['path'];
};

/** One constant per route, so a script that needs one path (the landing's session check) carries only it. */
export const healthEndpoint = { method: 'GET', path: '/api/health' } as const;
export const publicConfigEndpoint = { method: 'GET', path: '/api/public-config' } as const;
export const signInWithInstallEndpoint = { method: 'GET', path: '/api/auth/github/install' } as const;
export const signInEndpoint = { method: 'GET', path: '/api/auth/github' } as const;
export const oauthCallbackEndpoint = { method: 'GET', path: '/api/auth/github/callback' } as const;
export const currentUserEndpoint = { method: 'GET', path: '/api/user' } as const;
export const logoutEndpoint = { method: 'POST', path: '/api/auth/logout' } as const;
export const completeProfileEndpoint = { method: 'POST', path: '/api/auth/complete-profile' } as const;
export const enterpriseContactEndpoint = { method: 'POST', path: '/api/enterprise-contact' } as const;
export const listRepositoriesEndpoint = { method: 'GET', path: '/api/github/repos' } as const;
export const getRepositoryEndpoint = { method: 'GET', path: '/api/github/repos/:owner/:repo' } as const;
export const repositoryRootEndpoint = {
  method: 'GET',
  path: '/api/github/repos/:owner/:repo/contents',
} as const;
export const repositoryContentsEndpoint = {
  method: 'GET',
  path: '/api/github/repos/:owner/:repo/contents/*',
} as const;
export const listBranchesEndpoint = {
  method: 'GET',
  path: '/api/github/repos/:owner/:repo/branches',
} as const;
export const listInstallationsEndpoint = { method: 'GET', path: '/api/github/installations' } as const;
export const vmSizesEndpoint = { method: 'GET', path: '/api/vm-sizes' } as const;
export const workflowDefinitionEndpoint = { method: 'GET', path: '/api/workflow/deployment' } as const;
export const startDeploymentEndpoint = { method: 'POST', path: '/api/workflow/deployment/start' } as const;
export const deploymentStatusEndpoint = {
  method: 'GET',
  path: '/api/workflow/deployment/status/:sessionId',
} as const;
export const deploymentStatusStreamEndpoint = {
  method: 'GET',
  path: '/api/workflow/deployment/status/:sessionId/stream',
} as const;
export const cancelDeploymentEndpoint = {
  method: 'POST',
  path: '/api/workflow/deployment/cancel/:sessionId',
} as const;
export const workspaceRevisionsEndpoint = { method: 'GET', path: '/api/workspace-revisions/:name' } as const;
export const rollbackWorkspaceEndpoint = {
  method: 'POST',
  path: '/api/workspace-rollback/:name/:deploymentId',
} as const;
export const getDeployOnPushEndpoint = {
  method: 'GET',
  path: '/api/workspace-deploy-on-push/:name',
} as const;
export const setDeployOnPushEndpoint = {
  method: 'PUT',
  path: '/api/workspace-deploy-on-push/:name',
} as const;
export const githubWebhookEndpoint = { method: 'POST', path: '/api/webhooks/github' } as const;
export const deploymentJobEndpoint = { method: 'GET', path: '/api/deployment/job/:id' } as const;
export const getSessionStateEndpoint = { method: 'GET', path: '/api/session/state/:sessionId' } as const;
export const saveSessionStateEndpoint = { method: 'POST', path: '/api/session/state' } as const;
export const deleteSessionStateEndpoint = {
  method: 'DELETE',
  path: '/api/session/state/:sessionId',
} as const;
export const extendSessionStateEndpoint = {
  method: 'PUT',
  path: '/api/session/state/:sessionId/extend',
} as const;
export const deploymentLogStreamEndpoint = { method: 'GET', path: '/api/logs/:owner/:repo/stream' } as const;
export const listEnvVariablesEndpoint = { method: 'GET', path: '/api/env-variables/:workspace' } as const;
export const uploadEnvVariablesEndpoint = {
  method: 'POST',
  path: '/api/env-variables/:workspace/upload',
} as const;
export const updateEnvVariableEndpoint = {
  method: 'PUT',
  path: '/api/env-variables/:workspace/:key',
} as const;
export const deleteEnvVariableEndpoint = {
  method: 'DELETE',
  path: '/api/env-variables/:workspace/:key',
} as const;
export const deleteEnvVariablesEndpoint = {
  method: 'DELETE',
  path: '/api/env-variables/:workspace',
} as const;
export const listWorkspacesEndpoint = { method: 'GET', path: '/api/user-workspaces' } as const;
export const workspaceDetailsEndpoint = { method: 'GET', path: '/api/workspace-details/:name' } as const;
export const workspaceServicesEndpoint = { method: 'GET', path: '/api/workspace-services/:name' } as const;
export const workspaceLogsEndpoint = { method: 'GET', path: '/api/workspace-logs/:name' } as const;
export const workspaceLogStreamEndpoint = {
  method: 'GET',
  path: '/api/workspace-logs-stream/:name',
} as const;
export const deleteWorkspaceEndpoint = { method: 'DELETE', path: '/api/workspace-delete/:name' } as const;
export const systemHealthStatusEndpoint = {
  method: 'GET',
  path: '/api/monitoring/system-health-status/:workspace',
} as const;
export const systemInfoEndpoint = { method: 'GET', path: '/api/monitoring/system-info/:workspace' } as const;
export const vmHealthMetricsEndpoint = {
  method: 'GET',
  path: '/api/monitoring/vm-health-metrics/:workspace',
} as const;
export const systemHealthContainersEndpoint = {
  method: 'GET',
  path: '/api/monitoring/system-health-containers/:workspace',
} as const;
export const deploySystemHealthEndpoint = {
  method: 'POST',
  path: '/api/monitoring/system-health-deploy/:workspace',
} as const;
export const activeAlertsEndpoint = { method: 'GET', path: '/api/alerts-active/:workspace' } as const;
export const recentAlertsEndpoint = { method: 'GET', path: '/api/alerts-recent/:workspace' } as const;
export const alertStatisticsEndpoint = { method: 'GET', path: '/api/alerts-statistics/:workspace' } as const;
export const acknowledgeAlertEndpoint = { method: 'POST', path: '/api/alert-acknowledge/:alertId' } as const;
export const resolveAlertEndpoint = { method: 'POST', path: '/api/alert-resolve/:alertId' } as const;
export const getAlertConfigEndpoint = { method: 'GET', path: '/api/alerts/config/:workspace' } as const;
export const saveAlertConfigEndpoint = { method: 'PUT', path: '/api/alerts/config/:workspace' } as const;
export const testAlertSinkEndpoint = {
  method: 'POST',
  path: '/api/alerts/test/:workspace/:sink_type',
} as const;
export const billingPlansEndpoint = { method: 'GET', path: '/api/billing/plans' } as const;
export const createSubscriptionEndpoint = { method: 'POST', path: '/api/subscriptions/:repo_name' } as const;
export const listSubscriptionsEndpoint = { method: 'GET', path: '/api/subscriptions' } as const;
export const getSubscriptionEndpoint = { method: 'GET', path: '/api/subscriptions/:id' } as const;
export const cancelSubscriptionEndpoint = { method: 'POST', path: '/api/subscriptions/:id/cancel' } as const;
export const subscriptionInvoicesEndpoint = {
  method: 'GET',
  path: '/api/subscriptions/:id/invoices',
} as const;
export const listInvoicesEndpoint = { method: 'GET', path: '/api/invoices' } as const;
export const paypalWebhookEndpoint = { method: 'POST', path: '/api/webhooks/paypal' } as const;
export const adminSignInEndpoint = { method: 'POST', path: '/api/admin/auth' } as const;
export const adminSessionStatusEndpoint = { method: 'GET', path: '/api/admin/session-status' } as const;
export const adminSignOutEndpoint = { method: 'POST', path: '/api/admin/logout' } as const;
export const adminStatsEndpoint = { method: 'GET', path: '/api/admin/stats' } as const;
export const adminUsersEndpoint = { method: 'GET', path: '/api/admin/users' } as const;
export const adminWaitingListEndpoint = { method: 'GET', path: '/api/admin/users/waiting-list' } as const;
export const adminWhitelistedUsersEndpoint = { method: 'GET', path: '/api/admin/users/whitelisted' } as const;
export const whitelistUserEndpoint = { method: 'POST', path: '/api/admin/users/:id/whitelist' } as const;
export const removeFromWhitelistEndpoint = {
  method: 'DELETE',
  path: '/api/admin/users/:id/whitelist',
} as const;
export const bulkWhitelistEndpoint = { method: 'POST', path: '/api/admin/users/bulk-whitelist' } as const;
export const whitelistEmailsEndpoint = { method: 'GET', path: '/api/admin/whitelist/emails' } as const;
export const addWhitelistEmailEndpoint = { method: 'POST', path: '/api/admin/whitelist/emails' } as const;
export const removeWhitelistEmailEndpoint = {
  method: 'DELETE',
  path: '/api/admin/whitelist/emails/:email',
} as const;
export const adminVmsEndpoint = { method: 'GET', path: '/api/admin/vms' } as const;
export const deleteVmEndpoint = { method: 'DELETE', path: '/api/admin/vms/:vm_name' } as const;
export const adminWorkspacesEndpoint = { method: 'GET', path: '/api/admin/workspaces' } as const;
export const systemLogsEndpoint = { method: 'GET', path: '/api/admin/logs' } as const;
export const systemLogTailEndpoint = { method: 'GET', path: '/api/admin/logs/:service' } as const;
export const redisInfoEndpoint = { method: 'GET', path: '/api/admin/redis/info' } as const;
export const redisFlushEndpoint = { method: 'POST', path: '/api/admin/redis/flush' } as const;
export const impersonateEndpoint = { method: 'POST', path: '/api/admin/impersonate/:id' } as const;
export const cadvisorMachineEndpoint = {
  method: 'GET',
  path: '/api/admin/cadvisor/api/v1.3/machine',
} as const;
export const cadvisorContainersEndpoint = {
  method: 'GET',
  path: '/api/admin/cadvisor/api/v1.3/containers',
} as const;
export const openImpersonationLinkEndpoint = { method: 'GET', path: '/api/auth/impersonate' } as const;
export const redeemImpersonationTokenEndpoint = { method: 'POST', path: '/api/auth/impersonate' } as const;
export const webAppEndpoint = { method: 'GET', path: '/*' } as const;

/**
 * Every route of ROUTES by name, its method and path only: ROUTES carries the zod schemas (the server
 * validates with them), which a browser importing it would download. Only types come from routes.ts, so
 * the bundle holds none of it; the `satisfies` fails `tsc` too when this copy falls behind the table.
 */
export const ROUTE_ENDPOINTS = {
  health: healthEndpoint,
  publicConfig: publicConfigEndpoint,
  signInWithInstall: signInWithInstallEndpoint,
  signIn: signInEndpoint,
  oauthCallback: oauthCallbackEndpoint,
  currentUser: currentUserEndpoint,
  logout: logoutEndpoint,
  completeProfile: completeProfileEndpoint,
  enterpriseContact: enterpriseContactEndpoint,
  listRepositories: listRepositoriesEndpoint,
  getRepository: getRepositoryEndpoint,
  repositoryRoot: repositoryRootEndpoint,
  repositoryContents: repositoryContentsEndpoint,
  listBranches: listBranchesEndpoint,
  listInstallations: listInstallationsEndpoint,
  vmSizes: vmSizesEndpoint,
  workflowDefinition: workflowDefinitionEndpoint,
  startDeployment: startDeploymentEndpoint,
  deploymentStatus: deploymentStatusEndpoint,
  deploymentStatusStream: deploymentStatusStreamEndpoint,
  cancelDeployment: cancelDeploymentEndpoint,
  workspaceRevisions: workspaceRevisionsEndpoint,
  rollbackWorkspace: rollbackWorkspaceEndpoint,
  getDeployOnPush: getDeployOnPushEndpoint,
  setDeployOnPush: setDeployOnPushEndpoint,
  githubWebhook: githubWebhookEndpoint,
  deploymentJob: deploymentJobEndpoint,
  getSessionState: getSessionStateEndpoint,
  saveSessionState: saveSessionStateEndpoint,
  deleteSessionState: deleteSessionStateEndpoint,
  extendSessionState: extendSessionStateEndpoint,
  deploymentLogStream: deploymentLogStreamEndpoint,
  listEnvVariables: listEnvVariablesEndpoint,
  uploadEnvVariables: uploadEnvVariablesEndpoint,
  updateEnvVariable: updateEnvVariableEndpoint,
  deleteEnvVariable: deleteEnvVariableEndpoint,
  deleteEnvVariables: deleteEnvVariablesEndpoint,
  listWorkspaces: listWorkspacesEndpoint,
  workspaceDetails: workspaceDetailsEndpoint,
  workspaceServices: workspaceServicesEndpoint,
  workspaceLogs: workspaceLogsEndpoint,
  workspaceLogStream: workspaceLogStreamEndpoint,
  deleteWorkspace: deleteWorkspaceEndpoint,
  systemHealthStatus: systemHealthStatusEndpoint,
  systemInfo: systemInfoEndpoint,
  vmHealthMetrics: vmHealthMetricsEndpoint,
  systemHealthContainers: systemHealthContainersEndpoint,
  deploySystemHealth: deploySystemHealthEndpoint,
  activeAlerts: activeAlertsEndpoint,
  recentAlerts: recentAlertsEndpoint,
  alertStatistics: alertStatisticsEndpoint,
  acknowledgeAlert: acknowledgeAlertEndpoint,
  resolveAlert: resolveAlertEndpoint,
  getAlertConfig: getAlertConfigEndpoint,
  saveAlertConfig: saveAlertConfigEndpoint,
  testAlertSink: testAlertSinkEndpoint,
  billingPlans: billingPlansEndpoint,
  createSubscription: createSubscriptionEndpoint,
  listSubscriptions: listSubscriptionsEndpoint,
  getSubscription: getSubscriptionEndpoint,
  cancelSubscription: cancelSubscriptionEndpoint,
  subscriptionInvoices: subscriptionInvoicesEndpoint,
  listInvoices: listInvoicesEndpoint,
  paypalWebhook: paypalWebhookEndpoint,
  adminSignIn: adminSignInEndpoint,
  adminSessionStatus: adminSessionStatusEndpoint,
  adminSignOut: adminSignOutEndpoint,
  adminStats: adminStatsEndpoint,
  adminUsers: adminUsersEndpoint,
  adminWaitingList: adminWaitingListEndpoint,
  adminWhitelistedUsers: adminWhitelistedUsersEndpoint,
  whitelistUser: whitelistUserEndpoint,
  removeFromWhitelist: removeFromWhitelistEndpoint,
  bulkWhitelist: bulkWhitelistEndpoint,
  whitelistEmails: whitelistEmailsEndpoint,
  addWhitelistEmail: addWhitelistEmailEndpoint,
  removeWhitelistEmail: removeWhitelistEmailEndpoint,
  adminVms: adminVmsEndpoint,
  deleteVm: deleteVmEndpoint,
  adminWorkspaces: adminWorkspacesEndpoint,
  systemLogs: systemLogsEndpoint,
  systemLogTail: systemLogTailEndpoint,
  redisInfo: redisInfoEndpoint,
  redisFlush: redisFlushEndpoint,
  impersonate: impersonateEndpoint,
  cadvisorMachine: cadvisorMachineEndpoint,
  cadvisorContainers: cadvisorContainersEndpoint,
  openImpersonationLink: openImpersonationLinkEndpoint,
  redeemImpersonationToken: redeemImpersonationTokenEndpoint,
  webApp: webAppEndpoint,
} as const satisfies { readonly [N in RouteName]: RouteEndpoint<N> };
