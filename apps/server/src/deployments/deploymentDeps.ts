import type { Logger } from 'pino';
import type { Db } from '../infra/db/client.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { PubSub } from '../infra/pubsub/pubSub.js';
import type { ResolveCloneSource } from '../repositories/cloneSource.js';
import type { RolloutEngine } from '../rollout/engine.js';
import type { RevisionPlans } from '../rollout/revisionPlans.js';
import type { UserRow } from '../users/usersRepository.js';
import type { DockerTarget, VmProvider } from '../vm-providers/vmProvider.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { DeploymentRepository } from './deploymentRepository.js';

export type EnvLoader = (userId: string, workspaceName: string) => Promise<{ key: string; value: string }[]>;

/** The engine that runs a workspace's versions on its VM (the platform's choice: Compose). */
export type EngineFor = (target: DockerTarget, workspace: WorkspaceRow) => RolloutEngine;

/** Everything a deployment needs from outside, passed in so tests run it against real local things. */
export interface DeploymentDeps {
  db: Db;
  pubsub: PubSub;
  repository: DeploymentRepository;
  /** The workspaces' owner: every read and write of a workspace (and its VM record) goes through it. */
  workspaces: WorkspacesRepository;
  vmProvider: VmProvider;
  engineFor: EngineFor;
  ingress: Ingress;
  resolveSource: ResolveCloneSource;
  findUser: (id: string) => Promise<UserRow | undefined>;
  loadEnv: EnvLoader;
  /** Where checkouts and generated project files live while a deployment runs. */
  workRoot: string;
  /** Each kept version's plan, sealed on disk. */
  plans: RevisionPlans;
  healthTimeoutMs: number;
  keepVersions: number;
  /** Below this much free disk on the VM a build first prunes, then refuses (0: never). */
  minFreeDiskBytes: number;
  logger: Logger;
}
