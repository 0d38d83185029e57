import path from 'node:path';
import type Docker from 'dockerode';
import { candidateProjectName, composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { listCandidateContainers, removeCandidateContainers } from '../infra/docker/projectResources.js';
import type { IngressTarget } from '../infra/ingress/ingress.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { candidateProject } from './candidateProject.js';
import { allocateHostPorts, type HostPorts } from './hostPorts.js';
import { recordedTargets, targetsOf, upstreamsOf } from './publishedRoutes.js';
import { checkHealth, healthFailure } from './runHealth.js';
import { type Candidate, type RunState, requireTarget, type WorkflowDeps } from './runState.js';
import { replicaCounts } from './serviceRoles.js';
import { currentPlan, projectFor, servingPlan, upWithVariables, versionView } from './servingProject.js';
import { planReplacement, type Replacement } from './sideBySidePlan.js';

/** How long a switch waits for the proxy's requests in flight to the old upstreams to finish. */
const DRAIN_TIMEOUT_MS = 15_000;
const DRAIN_POLL_MS = 100;
/** How long the count must stay 0 (see drain). */
const DRAIN_SETTLE_MS = 300;

/** The candidate's project file for this run's version, with the workspace's variables or not. */
const candidateFile = (state: RunState, services: string[], hostPorts: HostPorts, withEnv: boolean) =>
  candidateProject(projectFor(state, currentPlan(state), withEnv), {
    services,
    mainProject: composeProjectName(state.workspace.id),
    workspaceId: state.workspace.id,
    hostPorts,
    publishAddress: requireTarget(state).publishAddress,
  });

/** Networks of the candidate's file that do not exist yet (new in this version): it cannot join them. */
async function missingNetworks(state: RunState, services: string[]): Promise<string[]> {
  const { docker } = requireTarget(state);
  const networks = (candidateFile(state, services, {}, false).networks ?? {}) as Record<
    string,
    { name: string }
  >;
  const missing: string[] = [];
  for (const { name } of Object.values(networks)) {
    const exists = await docker
      .getNetwork(name)
      .inspect()
      .then(() => true)
      .catch(() => false);
    if (!exists) missing.push(name);
  }
  return missing;
}

/** Side by side or in place, with the reason; in place for a first deployment or a workspace not serving. */
export async function replacementFor(state: RunState): Promise<Replacement> {
  if (state.firstDeploy) return { inPlace: 'first deployment' };
  if (state.workspace.status !== 'live') return { inPlace: `the workspace is ${state.workspace.status}` };
  const serving = await servingPlan(state);
  const replacement = planReplacement(
    serving && versionView(state, serving),
    versionView(state, currentPlan(state)),
    state.roles,
  );
  if (!('sideBySide' in replacement)) return replacement;
  const missing = await missingNetworks(state, replacement.sideBySide);
  return missing.length > 0 ? { inPlace: `its network ${missing[0]} is new` } : replacement;
}

/** Starts the candidate: the chosen services of this version in a project of their own, on host ports of their own. */
export async function startCandidate(state: RunState, services: string[]) {
  const target = requireTarget(state);
  // What an interrupted run may have left is not this version.
  await removeCandidateContainers(target.docker, state.workspace.id);
  const project = candidateProjectName(state.workspace.id);
  const hostPorts = await allocateHostPorts({
    docker: target.docker,
    workspaceId: state.workspace.id,
    project,
    planned: Object.fromEntries(services.map((name) => [name, state.plannedPorts[name] ?? []])),
    replicas: replicaCounts(state.roles),
    previous: {},
    connect: (port) => target.connect(port),
  });
  const file = { project, file: path.join(state.workDir, 'slipway.candidate.yml') };
  state.candidate = { ...file, services, hostPorts, switched: false };
  state.log.write(
    `Starting the new version of ${services.join(', ')} beside the serving one: its users stay on the serving version until the new one is verified`,
  );
  await upWithVariables(
    state,
    file,
    candidateFile(state, services, hostPorts, true),
    'Starting the new version',
  );
}

/** The candidate judged by the same health model as any deployment; its failure is the deployment's. */
export async function verifyCandidate(state: RunState, candidate: Candidate) {
  state.log.write(`Checking that the new version of ${candidate.services.join(', ')} answers...`);
  const result = await checkHealth(state, state.deps.healthTimeoutMs, false, {
    project: candidate.project,
    serviceLabel: LABELS.candidateService,
    roles: state.roles.filter((role) => candidate.services.includes(role.name)),
    hostPorts: candidate.hostPorts,
    // Every candidate container is new: each of its restarts counts.
    preExisting: new Set(),
  });
  if (!result.healthy) throw healthFailure(state, result, result.failureReason ?? 'Unknown failure');
  state.log.write(`The new version of ${candidate.services.join(', ')} answers`);
}

/**
 * Waits until the proxy has no request in flight to these upstreams, twice a moment apart, or the drain time is
 * over. Once is not enough: a request the proxy accepted just before the switch (its TLS handshake under way)
 * is counted only when it reaches the old route's proxy, and Caddy 2.6 gives up retrying such a request once
 * its old configuration is stopped, so an upstream removed under it would answer it with a 502.
 */
async function drain(state: RunState, upstreams: string[]) {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let idleSince: number | undefined;
  while (Date.now() < deadline) {
    const inFlight = await state.deps.ingress.inFlight(upstreams).catch((error: unknown) => {
      // A proxy that cannot say has nothing to wait for: its routes were written, the switch stands.
      state.deps.logger.warn(
        { err: error, deploymentId: state.deployment.id },
        'reading requests in flight failed',
      );
      return 0;
    });
    if (inFlight > 0) idleSince = undefined;
    else if (idleSince === undefined) idleSince = Date.now();
    else if (Date.now() - idleSince >= DRAIN_SETTLE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
  }
  state.log.write(`Requests still in flight to ${upstreams.join(', ')} after ${DRAIN_TIMEOUT_MS / 1000} s`);
}

/** The routes the workspace has on record: its own project's host ports. */
async function servingTargets(state: RunState) {
  const workspace = (await state.deps.workspaces.findById(state.workspace.id)) ?? state.workspace;
  return { workspace, targets: recordedTargets(workspace) };
}

/**
 * Sends the candidate's services' requests to the candidate, in one update of the proxy, then waits for the
 * requests in flight to the serving containers. The routes on record stay those of the workspace's project,
 * so a restart of Slipway in between puts them back. Without a proxy the URLs are the project's host ports
 * and nothing switches: the replacement that follows is the few-second gap the README describes.
 */
export async function switchToCandidate(state: RunState, candidate: Candidate) {
  if (state.deps.ingress.kind === 'direct') return;
  const target = requireTarget(state);
  const { workspace, targets } = await servingTargets(state);
  const moved: IngressTarget[] = targetsOf(
    candidate.services.flatMap((service) =>
      Object.values(candidate.hostPorts[service] ?? {}).map((hostPort) => ({ service, hostPort })),
    ),
    replicaCounts(state.roles),
    (port) => target.upstream(port),
  );
  const kept = targets.filter((t) => !candidate.services.includes(t.service));
  await state.deps.ingress.publish(workspace, [...moved, ...kept], workspace.serviceUrls ?? {});
  candidate.switched = true;
  state.log.write(`Requests to ${candidate.services.join(', ')} now go to the new version`);
  await drain(state, upstreamsOf(targets.filter((t) => candidate.services.includes(t.service))));
}

/**
 * Ends the candidate. After a failure the proxy may still send requests to it: the routes on record go back
 * first (a success has just published the new ones). Then its requests in flight finish and it is removed.
 */
export async function retireCandidate(state: RunState, routes: 'published' | 'restore') {
  const candidate = state.candidate;
  if (!candidate) return;
  const target = requireTarget(state);
  if (candidate.switched) {
    if (routes === 'restore') {
      const { workspace, targets } = await servingTargets(state);
      await state.deps.ingress.publish(workspace, targets, workspace.serviceUrls ?? {});
    }
    await drain(
      state,
      upstreamsOf(
        targetsOf(
          Object.entries(candidate.hostPorts).flatMap(([service, ports]) =>
            Object.values(ports).map((hostPort) => ({ service, hostPort })),
          ),
          replicaCounts(state.roles),
          (port) => target.upstream(port),
        ),
      ),
    );
  }
  await removeCandidateContainers(target.docker, state.workspace.id);
  state.candidate = undefined;
  state.log.write(`Removed the side-by-side copy of ${candidate.services.join(', ')}`);
}

/**
 * After a restart, what an interrupted redeploy's candidate left: the proxy may have sent requests to it, so
 * the routes on record (the workspace's own project) go back first, then it is removed.
 */
export async function abandonCandidate(
  deps: Pick<WorkflowDeps, 'ingress' | 'logger'>,
  docker: Docker,
  workspace: WorkspaceRow,
) {
  const candidates = await listCandidateContainers(docker, workspace.id).catch(() => []);
  if (candidates.length === 0) return;
  const routes = recordedTargets(workspace);
  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error, workspaceId: workspace.id }, what);
  if (routes.length > 0) {
    await deps.ingress
      .publish(workspace, routes, workspace.serviceUrls ?? {})
      .catch(warn('restoring the routes on record failed'));
  }
  await removeCandidateContainers(docker, workspace.id).catch(warn("removing a redeploy's candidate failed"));
}
