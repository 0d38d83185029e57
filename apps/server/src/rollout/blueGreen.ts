import type { Logger } from 'pino';
import { replicaCounts } from '../health/serviceRoles.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { planReplacement, type Replacement } from './blueGreenPlan.js';
import type { RolloutEngine } from './engine.js';
import { allocateHostPorts, type HostPorts } from './hostPorts.js';
import {
  type RouteDeps,
  recordedTargets,
  requestsInFlight,
  restoreRecordedRoutes,
  routeFor,
  upstreamsOf,
} from './publishedRoutes.js';
import type { RevisionPlan } from './revisionPlans.js';
import type { Rolling } from './rolloutRun.js';
import { checkHealth, healthFailure } from './verification.js';

/** How long a switch waits for the proxy's requests in flight to the old upstreams to finish. */
const DRAIN_TIMEOUT_MS = 15_000;
const DRAIN_POLL_MS = 100;
/** How long the count must stay 0 (see drain). */
const DRAIN_SETTLE_MS = 300;

/** A redeploy's changed published services, running beside the serving version until they are verified. */
export interface Green {
  services: string[];
  hostPorts: HostPorts;
  /** The proxy sends the services' requests to the green copy (until the serving copy serves them again). */
  switched: boolean;
}

/** Blue/green or in place, with the reason; in place for a first deployment or a workspace not serving. */
export async function replacementFor(
  { version, engine, run }: Rolling,
  serving: RevisionPlan | undefined,
  firstDeploy: boolean,
): Promise<Replacement> {
  if (firstDeploy) return { inPlace: 'first deployment' };
  if (run.workspace.status !== 'live') return { inPlace: `the workspace is ${run.workspace.status}` };
  const replacement = planReplacement(
    serving && engine.view(serving),
    engine.view(version.plan),
    version.plan.roles,
  );
  if (!('blueGreen' in replacement)) return replacement;
  const refusal = await engine.besideRefusal(version, replacement.blueGreen);
  return refusal ? { inPlace: refusal } : replacement;
}

/** The green copy of the chosen services of this version: host ports of its own, what an older run left gone. */
export async function greenCopy({ version, engine }: Rolling, services: string[]): Promise<Green> {
  // What an interrupted run may have left is not this version.
  await engine.remove('green');
  const { roles } = version.plan;
  const hostPorts = await allocateHostPorts(engine, {
    slot: 'green',
    planned: Object.fromEntries(
      services.map((name) => [name, roles.find((role) => role.name === name)?.publishedPorts ?? []]),
    ),
    replicas: replicaCounts(roles),
    previous: {},
  });
  return { services, hostPorts, switched: false };
}

/** Starts the green copy beside the serving one (a failure leaves it for the undo to remove). */
export async function startGreen({ version, engine, run }: Rolling, green: Green) {
  run.log(
    `Starting the new version of ${green.services.join(', ')} beside the serving one: its users stay on the serving version until the new one is verified`,
  );
  await engine.up(
    version,
    { slot: 'green', services: green.services, hostPorts: green.hostPorts },
    run,
    'Starting the new version',
  );
}

/** The green copy judged by the same health model as any deployment; its failure is the deployment's. */
export async function verifyGreen(rolling: Rolling, green: Green) {
  const { run, version } = rolling;
  run.log(`Checking that the new version of ${green.services.join(', ')} answers...`);
  const result = await checkHealth(rolling, 'green', {
    roles: version.plan.roles.filter((role) => green.services.includes(role.name)),
    hostPorts: green.hostPorts,
    timeoutMs: run.healthTimeoutMs,
    // Every green container is new: each of its restarts counts.
    preExisting: new Set(),
  });
  if (!result.healthy) throw healthFailure(rolling, result, result.failureReason ?? 'Unknown failure');
  run.log(`The new version of ${green.services.join(', ')} answers`);
}

/**
 * Waits until the proxy has no request in flight to these upstreams, twice a moment apart, or the drain time is
 * over. Once is not enough: a request the proxy accepted just before the switch (its TLS handshake under way)
 * is counted only when it reaches the old route's proxy, and Caddy 2.6 gives up retrying such a request once
 * its old configuration is stopped, so an upstream removed under it would answer it with a 502.
 */
async function drain({ run }: Rolling, upstreams: string[]) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let idleSince: number | undefined;
  while (Date.now() < deadline) {
    const inFlight = await requestsInFlight(run.routes, upstreams).catch((error: unknown) => {
      // A proxy that cannot say has nothing to wait for: its routes were written, the switch stands.
      run.logger.warn({ err: error, deploymentId: run.deploymentId }, 'reading requests in flight failed');
      return 0;
    });
    if (inFlight > 0) idleSince = undefined;
    else if (idleSince === undefined) idleSince = Date.now();
    else if (Date.now() - idleSince >= DRAIN_SETTLE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
  }
  run.log(`Requests still in flight to ${upstreams.join(', ')} after ${DRAIN_TIMEOUT_MS / 1000} s`);
}

/** The workspace as it is now: the routes it has on record are its serving copy's host ports. */
const current = async ({ run }: Rolling) =>
  (await run.routes.workspaces.findById(run.workspace.id)) ?? run.workspace;

/** The ingress targets of the green copy's services. */
const greenTargets = ({ engine, version }: Rolling, green: Green) =>
  engine.targets(
    'green',
    Object.fromEntries(green.services.map((service) => [service, green.hostPorts[service] ?? {}])),
    version.plan.roles,
  );

/**
 * Sends the green services' requests to the green copy, in one update of the proxy, then waits for the requests
 * in flight to the serving containers. The routes on record stay those of the workspace's project, so a restart
 * of Slipway in between puts them back. Without a proxy the URLs are the project's host ports and nothing
 * switches: the replacement that follows is the few-second gap the README describes.
 */
export async function switchToGreen(rolling: Rolling, green: Green) {
  const { run } = rolling;
  if (run.routes.ingress.kind === 'direct') return;
  const workspace = await current(rolling);
  const targets = recordedTargets(workspace);
  const kept = targets.filter((t) => !green.services.includes(t.service));
  await routeFor(run.routes, workspace, [...(await greenTargets(rolling, green)), ...kept]);
  green.switched = true;
  run.log(`Requests to ${green.services.join(', ')} now go to the new version`);
  await drain(rolling, upstreamsOf(targets.filter((t) => green.services.includes(t.service))));
}

/**
 * Ends the green copy. After a failure the proxy may still send requests to it: the routes on record go back
 * first (a success has just published the new ones). Then its requests in flight finish and it is removed.
 */
export async function retireGreen(rolling: Rolling, green: Green, routes: 'published' | 'restore') {
  const { run, engine } = rolling;
  if (green.switched) {
    if (routes === 'restore') await restoreRecordedRoutes(run.routes, await current(rolling));
    await drain(
      rolling,
      upstreamsOf(await greenTargets(rolling, { ...green, services: Object.keys(green.hostPorts) })),
    );
  }
  await engine.remove('green');
  run.log(`Removed the side-by-side copy of ${green.services.join(', ')}`);
}

/**
 * After a restart, what an interrupted redeploy's green copy left: the proxy may have sent requests to it, so
 * the routes on record (the serving copy's) go back first, then it is removed.
 */
export async function abandonGreen(
  deps: Pick<RouteDeps, 'ingress'> & { logger: Logger },
  engine: RolloutEngine,
  workspace: WorkspaceRow,
) {
  const green = await engine.replicas('green').catch(() => []);
  if (green.length === 0) return;
  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error, workspaceId: workspace.id }, what);
  if (recordedTargets(workspace).length > 0) {
    await restoreRecordedRoutes(deps, workspace).catch(warn('restoring the routes on record failed'));
  }
  await engine.remove('green').catch(warn("removing a redeploy's green copy failed"));
}
