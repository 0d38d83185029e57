import { NO_PORTS_MESSAGE, type ServiceState } from '@slipway/contract';
import { replicaCounts } from '../health/serviceRoles.js';
import {
  type Green,
  greenCopy,
  replacementFor,
  retireGreen,
  startGreen,
  switchToGreen,
  verifyGreen,
} from './blueGreen.js';
import type { RolloutEngine } from './engine.js';
import { allocateHostPorts, type HostPorts, hostPortsOfReplicas } from './hostPorts.js';
import { publishRoutes } from './publishedRoutes.js';
import type { RevisionPlan, VersionPlan } from './revisionPlans.js';
import type { Rolling, RolloutRun } from './rolloutRun.js';
import { serviceChanges } from './serviceChanges.js';
import { StepFailure } from './stepFailure.js';
import { untilStopped } from './untilStopped.js';
import { checkHealth, healthFailure, reportStartFailure } from './verification.js';

/** What serves before the rollout: the version on record and what the workspace's last deployment kept. */
export interface Serving {
  /** The plan of the version serving now (the last successful deployment's), if it is kept. */
  plan: RevisionPlan | undefined;
  /** The workspace never had a successful deployment: nothing serves, a failure leaves nothing behind. */
  firstDeploy: boolean;
  /** The host ports the last successful deployment kept. */
  hostPorts: HostPorts;
}

/** One published container port and where it is reached. */
export interface PublishedPort {
  service: string;
  containerPort: number;
  hostPort: number;
}

/** What a rollout that stood leaves: the version serving now, and its state. */
export interface Rollout {
  /** The version as it runs, host ports included: what it takes to start it again. */
  plan: RevisionPlan;
  ports: PublishedPort[];
  serviceStates: ServiceState[];
  serviceUrls: Record<string, string>;
}

/** A rollout that failed, after it undid what it had done; `cause` is why it failed. */
export class RolloutFailed extends Error {
  override name = 'RolloutFailed';
  constructor(
    override readonly cause: unknown,
    /** This version had replaced the serving one's containers, and whether the serving version runs again. */
    readonly undone: { servingReplaced: boolean; restored: boolean },
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * Rolls a planned version out on the engine, in place or blue/green: host ports, then its containers (in the
 * serving copy's place, or its changed published services beside it), its ports, the health model (the green copy
 * first, then the requests switched to it and the serving copy brought to the version), the routes published
 * — the only place a deployment writes the ingress, through publishedRoutes.ts — and the green copy retired.
 * On a failure it undoes what it did (the previous version started again, the green copy removed, the routes
 * on record put back) and throws {@link RolloutFailed}.
 */
export async function apply(
  planned: VersionPlan,
  engine: RolloutEngine,
  serving: Serving,
  run: RolloutRun,
): Promise<Rollout> {
  const done: Done = { servingReplaced: false };
  try {
    return await untilStopped(run.signal, rollOut(planned, engine, serving, run, done));
  } catch (error) {
    run.failing(error);
    throw new RolloutFailed(
      error,
      done.rolling ? await undo(done.rolling, serving, done) : { servingReplaced: false, restored: false },
    );
  }
}

/** What the rollout did so far, for its undo. */
interface Done {
  rolling?: Rolling;
  servingReplaced: boolean;
  green?: Green | undefined;
}

/** The host ports of the version: each kept from before where it is still free (hostPorts.ts). */
async function allocateServingPorts(planned: VersionPlan, engine: RolloutEngine, serving: Serving) {
  // What the last deployment kept comes first: a replicated service's first port is the start of its range,
  // which its running containers alone cannot tell when a replica is down.
  const previous = hostPortsOfReplicas(await engine.replicas('serving'));
  for (const [service, ports] of Object.entries(serving.hostPorts)) {
    previous[service] = { ...previous[service], ...ports };
  }
  return allocateHostPorts(engine, {
    slot: 'serving',
    planned: Object.fromEntries(
      planned.roles
        .filter((role) => role.publishedPorts.length > 0)
        .map((role) => [role.name, role.publishedPorts]),
    ),
    replicas: replicaCounts(planned.roles),
    previous,
  });
}

async function rollOut(
  planned: VersionPlan,
  engine: RolloutEngine,
  serving: Serving,
  run: RolloutRun,
  done: Done,
): Promise<Rollout> {
  const plan: RevisionPlan = { ...planned, hostPorts: await allocateServingPorts(planned, engine, serving) };
  const rolling: Rolling = { version: { plan, env: run.env }, engine, run };
  done.rolling = rolling;
  await run.recordHostPorts(plan.hostPorts);
  for (const line of serviceChanges(serving.plan && engine.view(serving.plan), engine.view(plan)))
    run.log(line);
  const replacement = await replacementFor(rolling, serving.plan, serving.firstDeploy);
  let preExisting: ReadonlySet<string> = new Set();
  if ('blueGreen' in replacement) {
    // The serving version is left alone until the new one answers: verify-deployment switches them.
    const green = await greenCopy(rolling, replacement.blueGreen);
    done.green = green;
    await startGreen(rolling, green);
  } else {
    if (!serving.firstDeploy) run.log(`Replacing the containers in place: ${replacement.inPlace}`);
    done.servingReplaced = true;
    preExisting = await startServing(rolling);
  }

  await run.enter('discover-ports');
  const ports = discoverPorts(rolling);

  await run.enter('verify-deployment');
  if (done.green) {
    await verifyGreen(rolling, done.green);
    await switchToGreen(rolling, done.green);
    done.servingReplaced = true;
    preExisting = await startServing(rolling);
  }
  run.log('Checking that the services answer...');
  const result = await checkHealth(rolling, 'serving', {
    roles: plan.roles,
    hostPorts: plan.hostPorts,
    timeoutMs: run.healthTimeoutMs,
    preExisting,
  });
  if (!result.healthy) throw healthFailure(rolling, result, result.failureReason ?? 'Unknown failure');
  for (const service of result.states) run.log(`Service ${service.service}: ${service.state}`);
  run.log('All services are up');

  await run.enter('configure-routing');
  // One HTTPS route per service (or plain local links without Caddy), replacing the workspace's routes at once.
  const serviceUrls = await publishRoutes(
    run.routes,
    run.workspace,
    await engine.targets('serving', plan.hostPorts, plan.roles),
  );
  for (const [service, url] of Object.entries(serviceUrls)) run.log(`${service}: ${url}`);
  // The serving copy runs this version now: the green copy that stood in while it was replaced goes.
  if (done.green) {
    await retireGreen(rolling, done.green, 'published');
    done.green = undefined;
  }
  return { plan, ports, serviceStates: result.states, serviceUrls };
}

/**
 * A project where no service publishes a port cannot be reached, so it fails here. Otherwise lists the fixed
 * host port of each published container port (only services with `ports:` are public).
 */
function discoverPorts({ version, engine, run }: Rolling): PublishedPort[] {
  const { plan } = version;
  if (!plan.roles.some((role) => role.publishedPorts.length > 0)) {
    const expected = plan.services.map((s) => s.name);
    throw new StepFailure(NO_PORTS_MESSAGE, {
      port_discovery_failed: true,
      expected_services: expected,
      failure_reason: `No service of ${expected.join(', ')} publishes a TCP port`,
    });
  }
  const ports = Object.entries(plan.hostPorts).flatMap(([service, bound]) =>
    Object.entries(bound).map(([containerPort, hostPort]) => ({
      service,
      containerPort: Number(containerPort),
      hostPort,
    })),
  );
  for (const port of ports) {
    run.log(`Service ${port.service}: port ${port.containerPort} on ${engine.upstream(port.hostPort)}`);
  }
  return ports;
}

/**
 * After a failure: a version that had replaced the serving one's containers puts the previous version back, and
 * a green copy goes (the routes on record first, if requests had switched to it).
 */
async function undo(rolling: Rolling, serving: Serving, done: Done) {
  const { run } = rolling;
  const restored =
    !serving.firstDeploy &&
    done.servingReplaced &&
    (await restoreServing(rolling, serving.plan).catch((error: Error) => {
      run.log(`The previous version could not be started again: ${error.message}`);
      return false;
    }));
  if (restored) run.log('The previous version is running again');
  if (done.green) {
    await retireGreen(rolling, done.green, 'restore').catch((error: Error) =>
      run.log(`The new version started beside the serving one could not be removed: ${error.message}`),
    );
    if (!done.servingReplaced) run.log('The previous version kept serving throughout');
  }
  return { servingReplaced: done.servingReplaced, restored };
}

/** How long putting the previous version back may take, whatever stopped the run. */
const RESTORE_TIMEOUT_MS = 10 * 60_000;

/**
 * Starts the rollout's version as the serving copy, replacing its changed replicas in place; returns the replicas
 * that ran before (the engine left them running: only their restarts from now on count).
 */
export async function startServing(rolling: Rolling): Promise<ReadonlySet<string>> {
  const { version, engine, run } = rolling;
  run.log('Starting containers...');
  const preExisting = new Set((await engine.replicas('serving')).map((replica) => replica.id));
  try {
    await engine.up(version, { slot: 'serving' }, run, 'Starting the containers');
  } catch (error) {
    // A one-shot service that failed stops `up`: its exit code and log explain more than the engine's last line.
    throw await reportStartFailure(rolling, error, preExisting);
  }
  run.log('Containers started');
  return preExisting;
}

/**
 * After a redeploy failed with its containers started: starts the last good version again from its plan and
 * its kept images (no build), with the workspace's variables. False when there is none to go back to.
 */
export async function restoreServing(
  { engine, run }: Rolling,
  serving: RevisionPlan | undefined,
): Promise<boolean> {
  if (!serving) return false;
  run.log(`Starting the previous version again (deployment ${serving.deploymentId.slice(0, 8)})`);
  // The run's own signal may be the reason it failed (a time limit, a cancel): this has one of its own.
  await engine.up(
    { plan: serving, env: run.env },
    { slot: 'serving' },
    { ...run, signal: AbortSignal.timeout(RESTORE_TIMEOUT_MS) },
    'Starting the previous version',
  );
  return true;
}
