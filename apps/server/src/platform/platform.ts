import type { Logger } from 'pino';
import { createAdminModule } from '../admin/adminModule.js';
import { createApiTokensRepository } from '../api-tokens/apiTokensRepository.js';
import { createApiTokensService } from '../api-tokens/apiTokensService.js';
import { createAuthService } from '../auth/authService.js';
import { createSessionManager } from '../auth/sessions.js';
import { type BackupsModule, createBackupsModule } from '../backups/backupsModule.js';
import { createBackupsRepository } from '../backups/backupsRepository.js';
import type { BackupEngine } from '../backups/engine/backupEngine.js';
import { createBillingModule } from '../billing/billingModule.js';
import { sweepLapsedWorkspaces } from '../billing/lapseSweep.js';
import type { Config } from '../config/config.js';
import { resolveSecrets, type Secrets } from '../config/secrets.js';
import { createCustomDomainsModule } from '../custom-domains/customDomainsModule.js';
import { createCustomDomainStore } from '../custom-domains/servableNames.js';
import { createDeployOnPushModule } from '../deploy-on-push/deployOnPushModule.js';
import { createDeploymentRepository } from '../deployments/deploymentRepository.js';
import { createDeploymentsModule } from '../deployments/deploymentsModule.js';
import { createEnterpriseService } from '../enterprise/enterpriseService.js';
import { createEnvVariablesRepository } from '../env-variables/envVariablesRepository.js';
import { createEnvVariablesService } from '../env-variables/envVariablesService.js';
import { createPreviewVariables } from '../env-variables/previewVariables.js';
import { type ComposeCli, createComposeCli } from '../infra/compose/composeCli.js';
import { createDocker } from '../infra/docker/dockerode.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import { createDurableRuns } from '../jobs/durableRuns.js';
import type { JobKind } from '../jobs/jobCatalogue.js';
import { createLogChunks } from '../logs/logChunks.js';
import { createSecretMasks } from '../logs/secretMasking.js';
import { createWorkspaceNodes } from '../nodes/workspaceNodes.js';
import { createPreviewsModule, type PreviewsModule } from '../previews/previewsModule.js';
import type { PullRequestNotes } from '../previews/pullRequestNotes.js';
import { localPullRequestRefs, watchLocalRefs } from '../repositories/localGit.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import { createUsersRepository } from '../users/usersRepository.js';
import { createVmRepository } from '../vm-providers/vmRepository.js';
import { createWorkspaceLifecycle } from '../workspaces/workspaceLifecycle.js';
import { createWorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { chooseBackupEngine } from './chooseBackupEngine.js';
import { chooseContainerMonitor } from './chooseContainerMonitor.js';
import { chooseIngress } from './chooseIngress.js';
import { choosePaypal } from './choosePaypal.js';
import { choosePullRequestNotes } from './choosePullRequestNotes.js';
import { chooseRepositoryProvider } from './chooseRepositoryProvider.js';
import { chooseVmProvider } from './chooseVmProvider.js';
import { createRunningApps } from './runningApps.js';
import { openSharedAdapters } from './sharedAdapters.js';
import { createWorkers } from './workers.js';

/**
 * The composition root: every adapter is chosen here from the config, and every domain service
 * receives the adapters it needs. Nothing else decides between Redis and the database, PGlite and PostgreSQL.
 */
export async function createPlatform(
  config: Config,
  options: {
    logger?: Logger;
    secrets?: Secrets;
    databaseInMemory?: boolean;
    /** The Compose CLI the deployments run (tests wrap the real one to see what it is given). */
    compose?: () => Promise<ComposeCli>;
    /** The ingress instead of the configured one (tests: a recording one where Caddy is not the point). */
    ingress?: Ingress;
    /** Where previews write on pull requests (tests: the GitHub adapter pointed at the stand-in). */
    pullRequestNotes?: PullRequestNotes;
    /** The backup engine instead of the real one (unit tests of scheduling and retention only). */
    backupEngine?: BackupEngine;
    /** The backups' clock (schedule tests move it). */
    now?: () => Date;
    /** Told each phase a durable run reached, once stored (fault tests crash the process there). */
    onRunReached?: (job: JobKind, id: string, phase: string) => void;
  } = {},
) {
  const secrets = options.secrets ?? resolveSecrets(config);
  const { logger, database, db, redis, kv, pubsub, queue, vault, mailer } = await openSharedAdapters(config, {
    secrets,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.databaseInMemory ? { databaseInMemory: true } : {}),
  });

  // Every durable run (deployments, backups, restores): one heartbeat, one reaper, one cancel, one resumption.
  const runs = createDurableRuns({
    queue,
    pubsub,
    logger,
    heartbeatMs: config.deployments.heartbeatMs,
    ...(options.onRunReached ? { onReached: options.onRunReached } : {}),
  });

  // Each table's one owner, built once and handed to the areas that read or write the table.
  const users = createUsersRepository(db);
  const vmRows = createVmRepository(db);
  const workspacesRepo = createWorkspacesRepository(db, vmRows);
  const deploymentRows = createDeploymentRepository(db);
  const envVariableRows = createEnvVariablesRepository(db);
  const backupRows = createBackupsRepository(db);
  const sessions = createSessionManager(kv, secrets.sessionSecret);
  const githubOAuth =
    config.authMode === 'github' && config.github.clientId && config.github.clientSecret
      ? (await import('../infra/github/githubOAuth.js')).createGithubOAuth({
          clientId: config.github.clientId,
          clientSecret: config.github.clientSecret,
          appSlug: config.github.appSlug,
          apiUrl: config.github.apiUrl,
          webUrl: config.github.webUrl,
          callbackUrl: `${config.publicUrl}/api/auth/github/callback`,
        })
      : undefined;
  const auth = createAuthService({
    users,
    vault,
    github: githubOAuth,
    localOperatorLogin: config.localOperatorLogin,
  });
  const enterprise = createEnterpriseService({ db, mailer, salesEmail: undefined });
  const envVariables = createEnvVariablesService({ repository: envVariableRows, vault });
  const previewVariables = createPreviewVariables({ repository: envVariableRows, vault });
  // A preview workspace runs with the variables its parent shares with previews, never its own name's.
  let previews: PreviewsModule | undefined;
  const variablesOf = async (userId: string, workspaceName: string) =>
    (await previews?.previewEnv(userId, workspaceName)) ?? envVariables.readPlaintext(userId, workspaceName);
  const apiTokens = createApiTokensService({ tokens: createApiTokensRepository(db), pubsub });
  const masks = createSecretMasks({
    loadValues: async (userId, workspaceName) =>
      (await variablesOf(userId, workspaceName)).map((variable) => variable.value),
    onError: (error) => logger.error({ err: error }, 'reading secrets to mask failed'),
  });
  const billing = createBillingModule({
    config,
    db,
    users,
    workspaces: workspacesRepo,
    mailer,
    logger,
    paypal: choosePaypal(config),
  });
  const vmProvider = chooseVmProvider({ config, vmRepository: vmRows, vault });
  // A workspace's nodes: the count, their VMs, their engines and states (the rollout provisions them).
  const nodes = createWorkspaceNodes({
    workspaces: workspacesRepo,
    vms: vmRows,
    provider: vmProvider,
    authorize: (userId, workspaceName, vmSize, count, subscriptionId) =>
      billing.assertCanDeploy(userId, workspaceName, vmSize, subscriptionId, count),
  });
  const runningApps = createRunningApps({
    config,
    db,
    kv,
    pubsub,
    vault,
    mailer,
    logger,
    masks,
    nodes,
    workspaces: workspacesRepo,
    deployments: deploymentRows,
  });
  // Caddy asks this URL before it orders a certificate for a custom domain; `listeningOn` corrects its port.
  let permissionUrl = config.ingress.permissionUrl;
  const customDomainStore = createCustomDomainStore({ db, pubsub, logger });
  const ingress =
    options.ingress ??
    chooseIngress(config, {
      customHosts: customDomainStore.repository.customHostsOf,
      permissionUrl: () => permissionUrl,
      onError: (error, what) => logger.warn({ err: error }, `caddy ingress: ${what}`),
    });
  const customDomains = createCustomDomainsModule({
    config,
    store: customDomainStore,
    ingress,
    workspaces: runningApps.workspacesRepo,
    kv,
    logger,
  });
  const repositories = await chooseRepositoryProvider(config, vault);
  // Finding out which Compose CLI is installed takes a second; do it now rather than in the first deployment.
  // A failure here is not the answer: the first deployment asks again and reports it in its build log.
  void createComposeCli().catch(() => {});
  const deploymentsModule = createDeploymentsModule({
    config,
    db,
    kv,
    pubsub,
    runs,
    users,
    vault,
    logger,
    vmProvider,
    ingress,
    compose: options.compose ?? (() => createComposeCli()),
    workspaces: workspacesRepo,
    deployments: deploymentRows,
    resolveSource: (user, owner, repo) => repositories.cloneSource(user, owner, repo),
    loadEnv: variablesOf,
    // Paid for as many nodes as the workspace runs on.
    authorizeDeployment: async (userId, workspaceName, vmSize, subscriptionId) =>
      billing.assertCanDeploy(
        userId,
        workspaceName,
        vmSize,
        subscriptionId,
        await nodes.countByName(userId, workspaceName),
      ),
    // Deployments wait for a restore of the workspace, as a restore waits for them.
    restoreRunning: backupRows.restoreRunning,
  });
  // Plans written in the clear by an older Slipway hold the variables they were read with: sealed before anything runs.
  await deploymentsModule.plans.sealLegacyPlans(logger);
  const deployments = deploymentsModule;
  const workers = createWorkers({
    runs,
    deployments,
    heartbeatMs: config.deployments.heartbeatMs,
    onlyProcess: !config.databaseUrl,
    kv,
    logger,
  });
  const deployOnPush = createDeployOnPushModule({
    config,
    db,
    kv,
    logger,
    deployments: deployments.service,
    repository: deployments.repository,
    otherEvents: (event, payload) => previewsModule.receiveGithubEvent(event, payload),
  });
  const { runtime } = deployments.service;
  const logChunks = createLogChunks(db);
  const workspaceLifecycle = createWorkspaceLifecycle({
    workspaces: workspacesRepo,
    logger,
    parts: {
      deploying: runtime.deploying,
      stopRuntime: runtime.stop,
      removeRuntime: runtime.remove,
      removeRecords: [
        (workspace) => envVariables.deleteAll(workspace.userId, workspace.name),
        (workspace) => logChunks.deleteWorkspace(workspace.userId, workspace.name),
        (workspace) => customDomainStore.repository.deleteForWorkspace(workspace.id),
        // A workspace's previews go with it (a preview's own previews: none).
        (workspace) => previewsModule.removeAllOf(workspace),
        (workspace) => backups.removeWorkspace(workspace),
        // Nodes 2… of a workspace on several VMs (node 1 went with the runtime).
        (workspace) => nodes.releaseAll(workspace),
      ],
      announceStop: async (workspace, reason, boundMs) =>
        (await runningApps.expectedStops.announce({ workspaceId: workspace.id, reason, boundMs })).end,
    },
  });
  const previewsModule = createPreviewsModule({
    db,
    kv,
    logger,
    workspaces: runningApps.workspacesRepo,
    deployments: deployments.service,
    repository: deployments.repository,
    variables: previewVariables,
    removeWorkspace: (userId, name) => workspaceLifecycle.removeIfPresent(userId, name, 'preview removal'),
    readLocalBranches:
      config.authMode === 'local'
        ? (owner, repo) => localPullRequestRefs(config.localReposDir, owner, repo)
        : undefined,
    watchLocalRefs:
      config.authMode === 'local'
        ? (owner, repo, onChange) => watchLocalRefs(config.localReposDir, owner, repo, onChange)
        : undefined,
    notes: options.pullRequestNotes ?? (await choosePullRequestNotes(config)),
  });
  previews = previewsModule;
  // Every minute, in one replica: deletions that did not finish are tried again.
  const deletionRetries = scheduledWhileLeaseHeld('workspace-deletions', {
    kv,
    logger,
    task: () => workspaceLifecycle.resumeDeletions(),
  });
  // Hourly, in one replica: stops the workspaces whose subscriptions lapsed beyond the grace period.
  const lapseSweeper = scheduledWhileLeaseHeld('billing-lapse-sweeper', {
    kv,
    logger,
    task: () =>
      sweepLapsedWorkspaces({
        billing,
        stopWorkspace: (userId, name) => workspaceLifecycle.stop(userId, name),
        graceDays: config.billingGraceDays,
        logger,
      }),
  });
  // Its streams (a dump, a copy, `wait`) run for as long as the data takes; other calls have their deadlines.
  const backupDocker = createDocker({ socketPath: config.vm.dockerSocket });
  const backups: BackupsModule = createBackupsModule({
    db,
    repository: backupRows,
    vault,
    kv,
    logger,
    store: config.backups.store,
    engine: options.backupEngine ?? chooseBackupEngine(config, backupDocker),
    docker: backupDocker,
    runs,
    alerts: runningApps.alerts,
    workspaces: runningApps.workspacesRepo,
    // The serving version's roles and host ports: the newest completed deployment's kept plan.
    healthModel: async (workspace) => {
      const [serving] = await deployments.repository.completedForWorkspace(workspace.id);
      return serving ? deployments.plans.load(workspace.id, serving.id) : undefined;
    },
    healthTimeoutMs: config.deployments.healthTimeoutMs,
    deploymentInProgress: async (workspace) =>
      Boolean(await deployments.repository.activeForWorkspace(workspace.userId, workspace.name)),
    announceStops: (workspace, services, reason, boundMs) =>
      runningApps.expectedStops.announce({ workspaceId: workspace.id, services, reason, boundMs }),
    singleProcess: !config.databaseUrl,
    ...(options.now ? { now: options.now } : {}),
  });
  const admin = createAdminModule({
    config,
    adminPassword: secrets.adminPassword,
    db,
    kv,
    redis,
    mailer,
    sessions,
    users,
    vms: vmRows,
    deployments: deploymentRows,
    containerMonitor: chooseContainerMonitor(config, logger),
    // Live VM state and deletion come from the engine's VM provider.
    vmOperations: { ...deployments.service.adminVmOperations },
  });

  return {
    config,
    secrets,
    logger,
    database,
    db,
    redis,
    kv,
    pubsub,
    queue,
    runs,
    workers,
    vault,
    mailer,
    users,
    sessions,
    githubOAuth,
    auth,
    enterprise,
    apiTokens,
    workspaceLifecycle,
    runningApps,
    repositories,
    envVariables,
    deployments,
    deployOnPush,
    billing,
    nodes,
    lapseSweeper,
    deletionRetries,
    customDomains,
    previews: previewsModule,
    backups,
    ingress,
    admin,
    /**
     * The port the server listens on, once it does: with PORT=0 (tests) it is known only then, and Caddy's
     * permission question must reach it.
     */
    listeningOn(port: number) {
      const url = new URL(config.ingress.permissionUrl);
      url.port = String(port);
      permissionUrl = url.toString();
    },
    async close() {
      await backups.stop();
      await customDomains.stop();
      await previewsModule.stop();
      await ingress.close();
      await lapseSweeper.stop();
      await deletionRetries.stop();
      await deployOnPush.stop();
      await workers.stop();
      await runningApps.stop();
      await nodes.close();
      await apiTokens.stop();
      await queue.close();
      await pubsub.close();
      await kv.close();
      mailer.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

export type Platform = Awaited<ReturnType<typeof createPlatform>>;
