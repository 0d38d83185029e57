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
import { createComposeEngine } from '../rollout/compose/composeEngine.js';
import { createRevisionPlans } from '../rollout/revisionPlans.js';
import { createRouteRestorer } from '../rollout/routeRestorer.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { VmProvider } from '../vm-providers/vmProvider.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBuildLogReader } from './buildLog.js';
import { type AuthorizeDeployment, createDeploy } from './deploy.js';
import type { DeploymentDeps, EnvLoader } from './deploymentDeps.js';
import type { DeploymentRepository } from './deploymentRepository.js';
import { deploymentKind } from './deploymentRun.js';
import { createDeploymentService } from './deploymentService.js';
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
  authorizeDeployment?: AuthorizeDeployment;
  /** Whether a restore of the workspace's data runs (backups' word; deployments wait for it). */
  restoreRunning?: (workspaceId: string) => Promise<boolean>;
  vmProvider: VmProvider;
  ingress: Ingress;
  compose: () => Promise<ComposeCli>;
  /** The owners of `workspaces` and `deployments`, built once by the platform. */
  workspaces: WorkspacesRepository;
  deployments: DeploymentRepository;
}) {
  const { config, vmProvider, ingress } = deps;
  const workspaces = deps.workspaces;
  const repository = deps.deployments;
  const plans = createRevisionPlans({ dataDir: config.dataDir, vault: deps.vault });
  const findUser = (id: string) => deps.users.findById(id);
  const runDeps: DeploymentDeps = {
    db: deps.db,
    pubsub: deps.pubsub,
    repository,
    workspaces,
    vmProvider,
    // Compose is the one engine today: a workspace's versions are Compose projects on its VM.
    engineFor: (target, workspace) =>
      createComposeEngine({
        target,
        workspace,
        cli: deps.compose,
        networkPool: config.deployments.networkPool,
      }),
    ingress,
    resolveSource: deps.resolveSource,
    findUser,
    loadEnv: deps.loadEnv ?? (async () => []),
    workRoot: path.join(config.dataDir, 'builds'),
    plans,
    healthTimeoutMs: config.deployments.healthTimeoutMs,
    keepVersions: config.deployments.keepVersions,
    // Read at each build, so a changed setting applies to the next deployment.
    get minFreeDiskBytes() {
      return config.deployments.minFreeDiskBytes;
    },
    logger: deps.logger,
  };
  const deploy = createDeploy({
    repository,
    workspaces,
    plans,
    resolveSource: deps.resolveSource,
    findUser,
    runs: deps.runs,
    restoreRunning: deps.restoreRunning,
    repoWebUrl: repositoryLocationBase(config),
    authorizeDeployment: deps.authorizeDeployment,
  });
  deps.runs.register(deploymentKind(runDeps, deploy));
  const service = createDeploymentService({ ...runDeps, deploy, runs: deps.runs, kv: deps.kv });
  const setServiceReplicas = createServiceReplicas({ workspaces, repository, plans, deploy });
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
