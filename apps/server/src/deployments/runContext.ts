import type { UserRow } from '../users/usersRepository.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { BuildLog } from './buildLog.js';
import type { DeploymentRow } from './deploymentRepository.js';

/** One deployment's own parts, fixed when it starts: what its stages read besides what the stage before hands on. */
export interface RunContext {
  deployment: DeploymentRow;
  workspace: WorkspaceRow;
  user: UserRow;
  env: { key: string; value: string }[];
  log: BuildLog;
  /** Masks the workspace's secret values in anything shown to the user. */
  redact: (text: string) => string;
  /** Aborted when a step's time limit passes or the owner cancels. */
  signal: AbortSignal;
  /** The run's own directory (its project files), removed when it ends. */
  workDir: string;
  /** The workspace never had a successful deployment: a failure then removes everything it started. */
  firstDeploy: boolean;
  /** Says why the deployment failed in its build log, once. */
  sayFailure(error: unknown): void;
}
