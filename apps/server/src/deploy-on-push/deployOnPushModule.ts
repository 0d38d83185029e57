import type { DeployOnPush } from '@slipway/contract';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { DeploymentService } from '../deployments/deploymentService.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { localBranchHead, watchLocalRefs } from '../repositories/localGit.js';
import type { UserRow } from '../users/usersRepository.js';
import { createPushMarks } from '../workspaces/pushMarks.js';
import { createGithubWebhook } from './githubWebhook.js';
import { createPushDeployer } from './pushDeployer.js';

/**
 * Deploy on push, wired: the per-workspace switch, GitHub's webhook, and the deployer that turns pushes (and, in
 * local mode, new branch heads) into deployments.
 */
export function createDeployOnPushModule(deps: {
  config: Config;
  db: Db;
  kv: KeyValueStore;
  logger: Logger;
  deployments: DeploymentService;
  repository: DeploymentRepository;
  /** GitHub events other than pushes, for previews (see githubWebhook.ts). */
  otherEvents?: (event: string, payload: unknown) => Promise<number | undefined>;
}) {
  const { config, deployments } = deps;
  const marks = createPushMarks(deps.db);
  const localRepos = config.authMode === 'local' ? config.localReposDir : undefined;
  /** A deployer; tests make their own with a shorter quiet time, or without the branch-head watcher. */
  const createDeployer = (
    options: { coalesceMs?: number; intervalMs?: number; watchLocalHeads?: boolean } = {},
  ) =>
    createPushDeployer({
      marks,
      repository: deps.repository,
      deployments,
      readBranchHead:
        localRepos && options.watchLocalHeads !== false
          ? (owner, repo, branch) => localBranchHead(localRepos, owner, repo, branch)
          : undefined,
      watchLocalRefs: localRepos
        ? (owner, repo, onChange) => watchLocalRefs(localRepos, owner, repo, onChange)
        : undefined,
      kv: deps.kv,
      logger: deps.logger,
      coalesceMs: options.coalesceMs,
      intervalMs: options.intervalMs,
    });
  const deployer = createDeployer();

  return {
    webhook: createGithubWebhook({
      secret: config.github.webhookSecret,
      marks,
      kv: deps.kv,
      logger: deps.logger,
      otherEvents: deps.otherEvents,
    }),
    settings: {
      async get(user: UserRow, name: string): Promise<DeployOnPush> {
        return { enabled: (await deployments.findOwnedWorkspace(user, name)).deployOnPush };
      },
      async set(user: UserRow, name: string, enabled: boolean): Promise<DeployOnPush> {
        const workspace = await deployments.findOwnedWorkspace(user, name);
        await marks.setEnabled(workspace.id, enabled);
        deployer.refresh();
        return { enabled };
      },
    },
    createDeployer,
    start: () => deployer.start(),
    stop: () => deployer.stop(),
  };
}

export type DeployOnPushModule = ReturnType<typeof createDeployOnPushModule>;
