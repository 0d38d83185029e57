import type Dockerode from 'dockerode';
import { engineCall, type NodeEngine, SwarmCallError, waitFor } from './swarmCall.js';
import type { SwarmServiceSpec } from './swarmServiceSpec.js';

/** Credentials for the cluster's registry, handed to the nodes with the service (`--with-registry-auth`). */
export interface RegistryAuth {
  username: string;
  password: string;
  serveraddress: string;
}

export interface ServiceState {
  id: string;
  name: string;
  version: number;
  spec: SwarmServiceSpec;
  /** The last rolling update's outcome; absent before the first update. */
  update?: { state: string; message: string };
  /** A job's run: each update of a job service runs it again, as a new iteration. */
  jobIteration?: number;
}

export interface TaskState {
  id: string;
  serviceId: string;
  nodeId: string;
  slot?: number;
  /** Swarm's task state: new … starting, running, complete, failed, shutdown, rejected, orphaned. */
  state: string;
  desiredState: string;
  message: string;
  error?: string;
  containerId?: string;
  /** The container's exit code, for a task that ended. */
  exitCode?: number;
  image: string;
  /** For a job's task: the iteration it ran for. */
  jobIteration?: number;
  /** Host-mode ports the engine published for this task: container port → port on its node. */
  ports: { target: number; published: number }[];
  updatedAt: string;
}

/** No registry: the spec's image is an image id or one the nodes hold. */
const NO_AUTH: Dockerode.AuthConfig = { username: '', password: '', serveraddress: '' };

type RawService = {
  ID?: string;
  Version?: { Index?: number };
  Spec?: SwarmServiceSpec;
  UpdateStatus?: { State?: string; Message?: string };
  JobStatus?: { JobIteration?: { Index?: number } };
};

const isMissing = (error: unknown) => error instanceof SwarmCallError && error.statusCode === 404;

/** A service by name, or undefined. */
export async function inspectService(manager: NodeEngine, name: string): Promise<ServiceState | undefined> {
  let raw: RawService;
  try {
    raw = (await engineCall(`inspect service ${name}`, (abortSignal) =>
      manager.docker.getService(name).inspect({ abortSignal }),
    )) as RawService;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  if (!raw.ID || !raw.Spec) throw new SwarmCallError(`inspect service ${name}`, 'an answer without a spec');
  return {
    id: raw.ID,
    name: raw.Spec.Name,
    version: raw.Version?.Index ?? 0,
    spec: raw.Spec,
    ...(raw.UpdateStatus
      ? { update: { state: raw.UpdateStatus.State ?? '', message: raw.UpdateStatus.Message ?? '' } }
      : {}),
    ...(raw.JobStatus?.JobIteration?.Index !== undefined
      ? { jobIteration: raw.JobStatus.JobIteration.Index }
      : {}),
  };
}

/**
 * Creates the service, or updates it to `spec` (a rolling update by its UpdateConfig). Returns its id and
 * whether it was created. The registry credentials travel with the spec to the nodes that pull its image.
 */
export async function applyService(
  manager: NodeEngine,
  spec: SwarmServiceSpec,
  auth?: RegistryAuth,
): Promise<{ id: string; created: boolean }> {
  const current = await inspectService(manager, spec.Name);
  if (!current) {
    const created = await engineCall(`create service ${spec.Name}`, (abortSignal) => {
      // The spec goes as the body as it is (docker-modem sends `_body`): @types/dockerode's ServiceSpec asks
      // for fields the engine does not need.
      const options: Dockerode.CreateServiceOptions & { _body: SwarmServiceSpec } = {
        _body: spec,
        abortSignal,
      };
      return manager.docker.createService(auth ?? NO_AUTH, options);
    });
    return { id: created.id, created: true };
  }
  await engineCall(`update service ${spec.Name}`, (abortSignal) =>
    manager.docker.getService(current.id).update({
      ...(auth ? { authconfig: auth } : {}),
      _query: { version: current.version },
      _body: spec,
      abortSignal,
    }),
  );
  return { id: current.id, created: false };
}

/** Removes a service; one already gone is fine. */
export async function removeService(manager: NodeEngine, name: string): Promise<void> {
  try {
    await engineCall(`remove service ${name}`, (abortSignal) =>
      manager.docker.getService(name).remove({ abortSignal }),
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** The names of the services carrying these labels. */
export async function listServiceNames(
  manager: NodeEngine,
  labels: Record<string, string>,
): Promise<string[]> {
  const raw = (await engineCall('list services', (abortSignal) =>
    manager.docker.listServices({
      filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) },
      abortSignal,
    }),
  )) as RawService[];
  return raw.flatMap((service) => (service.Spec?.Name ? [service.Spec.Name] : []));
}

type RawTask = {
  ID?: string;
  ServiceID?: string;
  NodeID?: string;
  Slot?: number;
  DesiredState?: string;
  UpdatedAt?: string;
  JobIteration?: { Index?: number };
  Spec?: { ContainerSpec?: { Image?: string } };
  Status?: {
    State?: string;
    Message?: string;
    Err?: string;
    ContainerStatus?: { ContainerID?: string; ExitCode?: number };
    PortStatus?: { Ports?: { TargetPort?: number; PublishedPort?: number }[] };
  };
};

/** A task's host-mode ports, once each (the engine reports a port per address family it bound). */
function taskPorts(task: RawTask): TaskState['ports'] {
  const seen = new Map<string, { target: number; published: number }>();
  for (const port of task.Status?.PortStatus?.Ports ?? []) {
    if (port.TargetPort && port.PublishedPort) {
      seen.set(`${port.TargetPort}:${port.PublishedPort}`, {
        target: port.TargetPort,
        published: port.PublishedPort,
      });
    }
  }
  return [...seen.values()];
}

/** Every task of a service Swarm still keeps (its history included), newest first. */
export async function serviceTasks(manager: NodeEngine, service: string): Promise<TaskState[]> {
  const raw = (await engineCall(`list tasks of ${service}`, (abortSignal) =>
    manager.docker.listTasks({ filters: { service: [service] }, abortSignal }),
  )) as RawTask[];
  return raw
    .map((task) => ({
      id: task.ID ?? '',
      serviceId: task.ServiceID ?? '',
      nodeId: task.NodeID ?? '',
      ...(task.Slot !== undefined ? { slot: task.Slot } : {}),
      state: task.Status?.State ?? 'unknown',
      desiredState: task.DesiredState ?? 'unknown',
      message: task.Status?.Message ?? '',
      ...(task.Status?.Err ? { error: task.Status.Err } : {}),
      ...(task.Status?.ContainerStatus?.ContainerID
        ? { containerId: task.Status.ContainerStatus.ContainerID }
        : {}),
      ...(task.Status?.ContainerStatus?.ExitCode !== undefined
        ? { exitCode: task.Status.ContainerStatus.ExitCode }
        : {}),
      image: task.Spec?.ContainerSpec?.Image ?? '',
      ...(task.JobIteration?.Index !== undefined ? { jobIteration: task.JobIteration.Index } : {}),
      ports: taskPorts(task),
      updatedAt: task.UpdatedAt ?? '',
    }))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

export type RolloutOutcome =
  /** Every wanted task runs (healthy, where the image or spec has a health check) on the new spec. */
  | { kind: 'converged'; tasks: TaskState[] }
  /** The update failed its checks and Swarm put the previous spec back. */
  | { kind: 'rolled_back'; message: string }
  /** The update stopped (failure_action pause) or a one-shot failed. */
  | { kind: 'failed'; message: string };

const runningOnSpec = (tasks: TaskState[], image: string) =>
  tasks.filter((task) => task.desiredState === 'running' && task.state === 'running' && task.image === image);

/**
 * Waits until a service's rollout settles: its update completed (or, for a new service, the wanted replicas run),
 * or Swarm rolled it back. A task reports `running` only once its health check passes, so running is healthy.
 * `updated`: the spec was updated (not created), so only an update status of that update settles it — Swarm
 * clears the status when an update is asked for, and old tasks of an unchanged image would look converged.
 */
export async function waitForRollout(
  manager: NodeEngine,
  name: string,
  ms: number,
  updated: boolean,
): Promise<RolloutOutcome> {
  return waitFor(
    `the rollout of ${name}`,
    async (): Promise<RolloutOutcome | undefined> => {
      const service = await inspectService(manager, name);
      if (!service) throw new SwarmCallError(`the rollout of ${name}`, 'the service is gone');
      const update = service.update;
      if (update?.state === 'rollback_completed') return { kind: 'rolled_back', message: update.message };
      if (update?.state === 'paused' || update?.state === 'rollback_paused') {
        return { kind: 'failed', message: update.message };
      }
      if (update ? update.state !== 'completed' : updated) return undefined;
      const mode = service.spec.Mode;
      if (!('Replicated' in mode)) return undefined;
      const tasks = await serviceTasks(manager, name);
      const running = runningOnSpec(tasks, service.spec.TaskTemplate.ContainerSpec.Image);
      return running.length >= mode.Replicated.Replicas ? { kind: 'converged', tasks: running } : undefined;
    },
    ms,
  );
}

/**
 * Waits until a one-shot (job) service's task of its current iteration completed; its failure is the outcome.
 * Tasks of earlier iterations (the job's runs before this update) are not looked at.
 */
export async function waitForCompletion(
  manager: NodeEngine,
  name: string,
  ms: number,
): Promise<RolloutOutcome> {
  return waitFor(
    `${name} to complete`,
    async (): Promise<RolloutOutcome | undefined> => {
      const service = await inspectService(manager, name);
      if (!service) throw new SwarmCallError(`${name} to complete`, 'the service is gone');
      const [task] = (await serviceTasks(manager, name)).filter(
        (candidate) => candidate.jobIteration === service.jobIteration,
      );
      if (!task) return undefined;
      if (task.state === 'complete') return { kind: 'converged', tasks: [task] };
      if (task.state === 'failed' || task.state === 'rejected') {
        return { kind: 'failed', message: `${name} ended with ${task.error ?? task.message}` };
      }
      return undefined;
    },
    ms,
  );
}
