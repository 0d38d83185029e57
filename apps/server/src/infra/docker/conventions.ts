/**
 * How Slipway names and labels what it runs, so the engine, the log collector, health monitoring and the
 * admin panel find the same containers without asking each other.
 */
export const LABELS = {
  workspaceId: 'dev.slipway.workspace-id',
  userId: 'dev.slipway.user-id',
  deploymentId: 'dev.slipway.deployment-id',
  /** Set on the system-health container (`system`) a workspace VM may run. */
  system: 'dev.slipway.system',
  /**
   * On a redeploy's candidate containers, started beside the serving version until they are verified: the
   * workspace they belong to and the service they stand for. They carry no workspace-id label, so the log
   * collector, health monitoring and the service list see only the serving version.
   */
  candidateOf: 'dev.slipway.candidate-of',
  candidateService: 'dev.slipway.candidate-service',
  /**
   * On a service that joins another's namespaces (`pid: service:x`…): the services it joins and a digest of their
   * configuration, so that Compose recreates it with them (sharedNamespaces.ts).
   */
  joins: 'dev.slipway.joins',
  /** On each container of a service that runs several replicas: how many (runtimePlan.ts). */
  replicas: 'dev.slipway.replicas',
  /** Compose's number of a service's container (1, 2, …), the replica's number. */
  composeNumber: 'com.docker.compose.container-number',
  composeProject: 'com.docker.compose.project',
  composeService: 'com.docker.compose.service',
} as const;

/**
 * What a workspace's own builds are named: `slipway-{workspaceId}-{service}:{deploymentId}`. The name, not a
 * label, says whose an image is: a build label is a step of its own in the classic builder (~80 ms a
 * service). The tag names the deployment that built it.
 */
export const builtImagePrefix = (workspaceId: string) => `slipway-${workspaceId}-`;
export const builtImageName = (workspaceId: string, serviceLabel: string, deploymentId: string) =>
  `${builtImagePrefix(workspaceId)}${serviceLabel}:${deploymentId}`;
/** A build stage the classic builder left (buildStages.ts): named like a build, for the workspace's clean-up. */
export const stageImagePrefix = (workspaceId: string) => `${builtImagePrefix(workspaceId)}stage.`;
/** Its name without the tag, which is the deployment's id as for a build. */
export const stageImageRepository = (workspaceId: string, imageId: string) =>
  `${stageImagePrefix(workspaceId)}${imageId.replace(/^sha256:/, '').slice(0, 12)}`;
/** The deployment whose build an image name of {@link builtImageName} is. */
export const builderOf = (imageName: string) => imageName.slice(imageName.lastIndexOf(':') + 1);

/** One Compose project (and so one network) per workspace. */
export const composeProjectName = (workspaceId: string) => `slipway-${workspaceId}`;

/** The Compose project of a redeploy's candidate services, beside the workspace's own. */
export const candidateProjectName = (workspaceId: string) => `slipway-${workspaceId}-candidate`;

/** Pub/sub channels; messages are JSON. */
export const CHANNELS = {
  /** Deployment status for the workflow SSE stream: `{type: 'status' | 'finished' | 'error', ...}`. */
  workflow: (sessionId: string) => `workflow:${sessionId}`,
  /** Build output of one deployment: `{ts, line}`. */
  buildLogs: (deploymentId: string) => `logs:build:${deploymentId}`,
  /** Running services' output of one workspace: lines `{id, ts, service, log, source, container_id}`, published before
   * they are stored, and `{type: 'stored', through}` once they are (logs/logStream.ts). */
  serviceLogs: (workspaceId: string) => `logs:service:${workspaceId}`,
} as const;
