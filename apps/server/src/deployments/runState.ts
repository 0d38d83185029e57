import type { ServiceState } from '@slipway/contract';
import type { Logger } from 'pino';
import type { ComposeCli } from '../infra/compose/composeCli.js';
import type { NormalizedService } from '../infra/compose/composeProject.js';
import type { SubnetPool } from '../infra/compose/networkSubnets.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import type { Db } from '../infra/db/client.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { ResolveCloneSource } from '../repositories/cloneSource.js';
import type { UserRow } from '../users/usersRepository.js';
import type { DockerTarget, VmProvider, VmRow } from '../vm-providers/vmProvider.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { BuildLog } from './buildLog.js';
import type { DeploymentRepository, DeploymentRow } from './deploymentRepository.js';
import type { HostPorts } from './hostPorts.js';
import type { PublishedPort } from './portDiscovery.js';
import type { RevisionPlan, RevisionPlans } from './revisionPlans.js';
import type { ServiceRole } from './serviceRoles.js';

export type EnvLoader = (userId: string, workspaceName: string) => Promise<{ key: string; value: string }[]>;

/** Everything the workflow needs from outside, passed in so tests run it against real local things. */
export interface WorkflowDeps {
  db: Db;
  pubsub: PubSub;
  repository: DeploymentRepository;
  /** The workspaces' owner: every read and write of a workspace (and its VM record) goes through it. */
  workspaces: WorkspacesRepository;
  vmProvider: VmProvider;
  compose: () => Promise<ComposeCli>;
  ingress: Ingress;
  resolveSource: ResolveCloneSource;
  findUser: (id: string) => Promise<UserRow | undefined>;
  loadEnv: EnvLoader;
  /** Where checkouts and generated compose files live while a deployment runs. */
  workRoot: string;
  /** Each kept version's plan, sealed on disk. */
  plans: RevisionPlans;
  healthTimeoutMs: number;
  keepVersions: number;
  /** Below this much free disk on the VM a build first prunes, then refuses (0: never). */
  minFreeDiskBytes: number;
  /** Where the projects' networks get their subnets; WORKSPACE_NETWORK_POOL's default when absent. */
  networkPool?: SubnetPool;
  logger: Logger;
  /**
   * After a restart, a redeploy that died with its containers in place of the serving version: starts the
   * workspace's last good version again (the deployment service rolls back to it).
   */
  restoreLastGood?: (interrupted: DeploymentRow) => Promise<void>;
}

/** A failure the user can act on; `metadata` goes to GET /api/deployment/job/{id}. */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    message: string,
    readonly metadata: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** One Compose project on the VM: its name and the file Slipway wrote for it. */
export interface ProjectFile {
  project: string;
  file: string;
}

/** A redeploy's changed published services, running beside the serving version until they are verified. */
export interface Candidate extends ProjectFile {
  services: string[];
  hostPorts: HostPorts;
  /** The proxy sends the services' requests to the candidate (until the workspace's project serves them again). */
  switched: boolean;
}

/** What one run of the workflow learns as it goes. */
export interface RunState {
  deps: WorkflowDeps;
  deployment: DeploymentRow;
  workspace: WorkspaceRow;
  user: UserRow;
  signal: AbortSignal;
  log: BuildLog;
  env: { key: string; value: string }[];
  /** A rollback: the kept version it starts again, instead of fetching, checking and building. */
  rollbackTo?: RevisionPlan;
  /** True when the workspace never had a successful deployment: a failure then removes everything it started. */
  firstDeploy: boolean;
  workDir: string;
  repoDir?: string;
  commitSha?: string;
  /** The repository has a Dockerfile and no compose file: its one service publishes what its image EXPOSEs. */
  dockerfileOnly?: boolean;
  /** The project as the check worker read and normalized it. */
  normalized?: Record<string, unknown>;
  /** What the sandbox rules found in it (checked with it, in the check worker); policy-check reports them. */
  policyViolations?: PolicyViolation[];
  services: NormalizedService[];
  /** The file Slipway runs; holds the variables only between writing and `up`. */
  finalComposeFile?: string;
  emptyEnvFile?: string;
  imageNames: Record<string, string>;
  imageIds: Record<string, string>;
  vm?: VmRow;
  target?: DockerTarget;
  compose?: ComposeCli;
  /** The workspace's own project runs this version's containers (a failure must put the previous ones back). */
  containersStarted: boolean;
  /** The workspace's containers just before this version's `up`: those it left running as they were. */
  containersBeforeUp?: ReadonlySet<string>;
  /** A redeploy's changed published services started beside the serving version, until they replace it. */
  candidate?: Candidate;
  /** Container ports Slipway asked Docker to publish, per service. */
  plannedPorts: Record<string, number[]>;
  ports: PublishedPort[];
  /** Containers per active service (the Compose file's count or the workspace's override), checked by policy-check. */
  replicas?: Record<string, number>;
  /** How each active service is judged healthy, and whether it is public. */
  roles: ServiceRole[];
  /** The fixed host port of every published container port, kept across restarts and redeploys. */
  hostPorts: HostPorts;
  /** Every service's state as the health check left it. */
  serviceStates: ServiceState[];
  serviceUrls: Record<string, string>;
  /** Masks the workspace's secret values in anything shown to the user. */
  redact: (text: string) => string;
}

export function requireTarget(state: RunState): DockerTarget {
  if (!state.target) throw new Error('The VM is not connected');
  return state.target;
}
