import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { ComposeCli } from '../infra/compose/composeCli.js';
import type { Db } from '../infra/db/client.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { Vault } from '../infra/vault/vault.js';
import type { DurableRuns } from '../jobs/durableRuns.js';
import { createLogStore } from '../logs/logStore.js';
import type { ResolveCloneSource } from '../repositories/cloneSource.js';
import { repositoryLocationBase } from '../repositories/repositoryLocation.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { VmProvider } from '../vm-providers/vmProvider.js';
import { createWorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBuildLogReader } from './buildLog.js';
import { createDeploymentRepository } from './deploymentRepository.js';
import { createDeploymentService } from './deploymentService.js';
import { createRevisionPlans } from './revisionPlans.js';
import { createRouteRestorer } from './routeRestorer.js';
import type { EnvLoader } from './runState.js';
import { createServiceReplicas } from './serviceReplicas.js';

/**
 * The deployment engine, wired over the adapters the platform chose (VM provider, Compose, ingress): the
 * workflow and its routes' services.
 */
export function createDeploymentsModule(deps: {
  config: Config;
  db: Db;
  kv: KeyValueStore;
  pubsub: PubSub;
  runs: DurableRuns;
  users: UsersRepository;
  vault: Vault;
  logger: Logger;
  resolveSource: ResolveCloneSource;
  loadEnv?: EnvLoader;
  authorizeDeployment?: Parameters<typeof createDeploymentService>[0]['authorizeDeployment'];
  restoreRunning?: Parameters<typeof createDeploymentService>[0]['restoreRunning'];
  vmProvider: VmProvider;
  ingress: Ingress;
  compose: () => Promise<ComposeCli>;
}) {
  const { config, vmProvider, ingress } = deps;
  const workspaces = createWorkspacesRepository(deps.db);
  const plans = createRevisionPlans({ dataDir: config.dataDir, vault: deps.vault });
  const service = createDeploymentService({
    db: deps.db,
    pubsub: deps.pubsub,
    kv: deps.kv,
    runs: deps.runs,
    repository: createDeploymentRepository(deps.db),
    workspaces,
    vmProvider,
    compose: deps.compose,
    ingress,
    resolveSource: deps.resolveSource,
    findUser: (id) => deps.users.findById(id),
    loadEnv: deps.loadEnv ?? (async () => []),
    authorizeDeployment: deps.authorizeDeployment,
    restoreRunning: deps.restoreRunning,
    workRoot: path.join(config.dataDir, 'builds'),
    plans,
    healthTimeoutMs: config.deployments.healthTimeoutMs,
    keepVersions: config.deployments.keepVersions,
    networkPool: config.deployments.networkPool,
    // Read at each build, so a changed setting applies to the next deployment.
    get minFreeDiskBytes() {
      return config.deployments.minFreeDiskBytes;
    },
    repoWebUrl: repositoryLocationBase(config),
    logger: deps.logger,
  });
  const repository = createDeploymentRepository(deps.db);
  const setServiceReplicas = createServiceReplicas({
    workspaces,
    repository,
    plans,
    start: (user, request) => service.start(user, request),
  });
  const routeRestorer = createRouteRestorer({ ingress, workspaces, logger: deps.logger });
  return {
    service,
    repository,
    vmProvider,
    ingress,
    buildLogs: createBuildLogReader(deps.db),
    logStore: createLogStore(deps.db),
    routeRestorer,
    plans,
    setServiceReplicas,
  };
}

export type DeploymentsModule = ReturnType<typeof createDeploymentsModule>;
