import type Docker from 'dockerode';
import { verifyHealth } from '../health/healthVerifier.js';
import type { ServiceRole } from '../health/serviceRoles.js';
import { composeProjectName } from '../infra/docker/conventions.js';
import type { HostPorts } from '../rollout/hostPorts.js';
import { tcpConnect } from '../vm-providers/local.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { BackupError } from './engine/backupEngine.js';

/** What the deployment health model needs from the serving version: its services' roles and host ports. */
export interface HealthModel {
  roles: ServiceRole[];
  hostPorts: HostPorts;
}

/** A service the serving plan does not describe is judged as one that must keep running. */
const runningRole = (name: string): ServiceRole => ({
  name,
  publishedPorts: [],
  oneShot: false,
  healthcheck: false,
  restart: undefined,
});

/**
 * After a restore, the services it touched are judged as a deployment judges them (health/healthVerifier:
 * healthcheck, published port answering, stable running), on this machine's engine; a failure is a BackupError
 * naming the services and why, which rolls the restore back.
 */
export function healthChecker(deps: {
  docker: Docker;
  healthModel: (workspace: WorkspaceRow) => Promise<HealthModel | undefined>;
  timeoutMs: number;
}) {
  return async (workspace: WorkspaceRow, services: string[], after = 'the restore'): Promise<void> => {
    const model = await deps.healthModel(workspace);
    const roles = services.map(
      (name) => model?.roles.find((role) => role.name === name) ?? runningRole(name),
    );
    const result = await verifyHealth({
      docker: deps.docker,
      project: composeProjectName(workspace.id),
      roles,
      hostPorts: model?.hostPorts ?? {},
      urls: {},
      connect: (port) => tcpConnect('127.0.0.1', port),
      timeoutMs: deps.timeoutMs,
    });
    if (!result.healthy) {
      throw new BackupError(
        `After ${after}, ${result.failedServices.join(', ') || 'the services'} did not come back healthy: ${
          result.failureReason ?? 'no reason given'
        }.`,
      );
    }
  };
}
