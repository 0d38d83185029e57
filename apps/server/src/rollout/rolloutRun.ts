import type { DeploymentStepName } from '@slipway/contract';
import type { Logger } from 'pino';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { EngineRun, EngineVersion, RolloutEngine } from './engine.js';
import type { HostPorts } from './hostPorts.js';
import type { RouteDeps } from './publishedRoutes.js';

/** The steps a rollout goes through after it started a version (the contract's labels users follow). */
export type RolloutStep = Extract<
  DeploymentStepName,
  'discover-ports' | 'verify-deployment' | 'configure-routing'
>;

/** What a rollout is handed by the deployment it is part of. */
export interface RolloutRun extends EngineRun {
  /** The workspace as the deployment found it (its status, its routes on record). */
  workspace: WorkspaceRow;
  deploymentId: string;
  env: EngineVersion['env'];
  /** Masks the workspace's secret values in anything shown to the user. */
  redact: (text: string) => string;
  healthTimeoutMs: number;
  routes: RouteDeps & { workspaces: Pick<WorkspacesRepository, 'update' | 'findById'> };
  logger: Logger;
  /** Keeps the host ports the version was given on the deployment's record, as soon as they are chosen. */
  recordHostPorts(hostPorts: HostPorts): Promise<void>;
  /** Told why the rollout failed, before it undoes what it did (the build log says why first). */
  failing(error: unknown): void;
  /** Reports the next step to the user (the time limit of each step starts here). */
  enter(step: RolloutStep): Promise<void>;
}

/** A rollout under way: the version it brings up, on which engine, for which run. */
export interface Rolling {
  version: EngineVersion;
  engine: RolloutEngine;
  run: RolloutRun;
}
