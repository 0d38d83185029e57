import type { StartDeploymentRequest } from '@slipway/contract';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { DeploymentRow } from './deploymentRepository.js';

/** A preview's deployment: its workspace's name, the ref to fetch, the commit it must be, the VM size. */
export interface PreviewTarget {
  name: string;
  ref: string;
  sha: string;
  vmSize: string;
}

/** Why a deployment starts: every deployment is one of these, given to `deploy` (deploy.ts). */
export type DeployTrigger =
  /** The owner starts a workspace's first deployment, or redeploys it (the Deploy screen, the API, the CLI). */
  | { kind: 'manual'; user: UserRow; request: StartDeploymentRequest }
  /** The owner goes back to a kept version: no fetch, no build. */
  | { kind: 'rollback'; user: UserRow; workspaceName: string; deploymentId: string; sessionId: string }
  /** A push to the workspace's branch (deploy-on-push/): its head, under a session of its own. */
  | { kind: 'push'; workspace: WorkspaceRow }
  /** A pull request's head commit, into its preview workspace (previews/). */
  | { kind: 'preview'; parent: WorkspaceRow; preview: PreviewTarget }
  /**
   * After a restart, a redeploy that died with its containers in place of the serving version (the reaper's
   * resumption): the newest kept version starts again, as a rollback the owner sees in the revisions list.
   */
  | { kind: 'restore-last-good'; interrupted: DeploymentRow };

/** A deployment queued: the session it is followed under, its id, and its workspace. */
export interface DeploymentStarted {
  sessionId: string;
  deploymentId: string;
  workspaceId: string;
}
