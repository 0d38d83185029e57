import type { Logger } from 'pino';
import { createAlertsRepository } from '../alerts/alertsRepository.js';
import { createAlertsService } from '../alerts/alertsService.js';
import { createExpectedStops } from '../alerts/expectedStops.js';
import { createHealthMonitor } from '../alerts/healthMonitor.js';
import type { Config } from '../config/config.js';
import type { DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { Mailer } from '../infra/mail/mailer.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import { createTelegramClient } from '../infra/telegram/telegramClient.js';
import type { Vault } from '../infra/vault/vault.js';
import { createLogPipeline } from '../logs/logPipeline.js';
import { DEFAULT_LOG_RETENTION_BYTES } from '../logs/logRetention.js';
import { createLogStore } from '../logs/logStore.js';
import type { SecretMasks } from '../logs/secretMasking.js';
import { createMetricSampler } from '../monitoring/metricSampler.js';
import { createMetricsRepository } from '../monitoring/metricsRepository.js';
import { createSystemHealthService } from '../monitoring/systemHealthService.js';
import type { WorkspaceNodesService } from '../nodes/workspaceNodes.js';
import { createAlertConfigService } from '../notifications/alertConfigService.js';
import { createAlertNotifier } from '../notifications/alertNotifier.js';
import { createSenders } from '../notifications/senders.js';
import { scheduledTask, scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import { type DockerFor, localDockerFor } from '../workspaces/workspaceDocker.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createWorkspacesService } from '../workspaces/workspacesService.js';

/**
 * Everything about apps once they run: the dashboard's reads, the log pipeline, system health, health
 * checks with alerts, and notifications. `start()` begins the background work (log collection, checks,
 * metric samples); request handling needs none of it.
 */
export function createRunningApps(deps: {
  config: Config;
  db: Db;
  kv: KeyValueStore;
  pubsub: PubSub;
  vault: Vault;
  mailer: Mailer;
  logger: Logger;
  /** The workspace's secrets, masked out of every log line, alert and message. */
  masks: SecretMasks;
  /** The workspaces' nodes: shown with each workspace, watched by the health monitor. */
  nodes: Pick<WorkspaceNodesService, 'present' | 'states'>;
  /** The owners of `workspaces` and `deployments`, built once by the platform. */
  workspaces: WorkspacesRepository;
  deployments: DeploymentRepository;
  dockerFor?: DockerFor;
}) {
  const { config, logger } = deps;
  const dockerFor = deps.dockerFor ?? localDockerFor(config.vm.dockerSocket);
  const workspacesRepo = deps.workspaces;
  const deploymentRows = deps.deployments;
  const logStore = createLogStore(deps.db);
  const metrics = createMetricsRepository(deps.db);
  const senders = createSenders({
    mailer: deps.mailer,
    telegram: createTelegramClient({ apiUrl: config.telegram.apiUrl }),
    defaultBotToken: config.telegram.botToken,
  });
  const alertConfigs = createAlertConfigService({
    db: deps.db,
    vault: deps.vault,
    workspaces: workspacesRepo,
    senders,
  });
  const alerts = createAlertsService({
    alerts: createAlertsRepository(deps.db),
    workspaces: workspacesRepo,
    listener: createAlertNotifier({ alertConfigs, logStore, senders, masks: deps.masks, logger }),
    masks: deps.masks,
    logger,
  });
  const expectedStops = createExpectedStops(deps.kv);
  const systemHealth = createSystemHealthService({
    workspaces: workspacesRepo,
    metrics,
    dockerFor,
    systemImage: config.monitoring.systemHealthImage,
    defaultProvider: config.vm.provider,
    logger,
  });
  const logsLogger = logger.child({ component: 'logs' });
  const logPipeline = createLogPipeline({
    dockerFor,
    workspaces: workspacesRepo,
    logStore,
    pubsub: deps.pubsub,
    masks: deps.masks,
    kv: deps.kv,
    logger: logsLogger,
    retention: {
      lines: config.monitoring.logRetentionLines,
      bytes: DEFAULT_LOG_RETENTION_BYTES,
      days: config.monitoring.logRetentionDays,
    },
  });
  const healthMonitor = createHealthMonitor({
    workspaces: workspacesRepo,
    alerts,
    expectedStops,
    dockerFor,
    nodeStates: deps.nodes.states,
    deploymentsInProgress: async () => {
      const active = new Set(
        (await deploymentRows.activeWorkspaces()).map((row) =>
          JSON.stringify([row.userId, row.workspaceName]),
        ),
      );
      return (row) => active.has(JSON.stringify([row.userId, row.name]));
    },
    kv: deps.kv,
    intervalMs: config.monitoring.healthCheckIntervalMs,
    logger: logger.child({ component: 'health' }),
  });
  const metricSampler = createMetricSampler({
    workspaces: workspacesRepo,
    systemHealth,
    metrics,
    dockerFor,
    logger,
  });
  const workspaces = createWorkspacesService({
    workspaces: workspacesRepo,
    latestDeployment: (row) => deploymentRows.latestForWorkspace(row.userId, row.name),
    loggedServices: (userId, workspaceName) => logStore.distinctServices(userId, workspaceName),
    nodesOf: deps.nodes.present,
    dockerFor,
    logger,
  });

  // The timers of the schedule catalogue these run on: every replica prunes and looks for engines (whose
  // leases decide who collects); one replica samples metrics.
  const logPruning = scheduledTask('log-prune', { logger: logsLogger, task: logPipeline.prune });
  const engineRefresh = scheduledTask('log-engine-refresh', {
    logger: logsLogger,
    task: async () => {
      await logPipeline.refreshEngines();
      await healthMonitor.refreshEngines();
    },
  });
  const metricSampling = scheduledWhileLeaseHeld('metric-sampler', {
    kv: deps.kv,
    logger,
    intervalMs: config.monitoring.metricSampleIntervalMs,
    task: metricSampler.sampleAll,
  });

  let started = false;
  return {
    dockerFor,
    workspacesRepo,
    workspaces,
    logStore,
    logPipeline,
    systemHealth,
    metricSampler,
    alerts,
    alertConfigs,
    expectedStops,
    healthMonitor,
    async start() {
      if (started) return;
      started = true;
      await logPruning.start();
      await engineRefresh.start();
      healthMonitor.start();
      metricSampling.start();
    },
    async stop() {
      if (!started) return;
      started = false;
      await Promise.all([healthMonitor.stop(), metricSampling.stop()]);
      await Promise.all([logPruning.stop(), engineRefresh.stop()]);
      await logPipeline.stop();
    },
  };
}

export type RunningApps = ReturnType<typeof createRunningApps>;
