/**
 * The scale bench's fleet: N workspaces of one small app (busybox httpd from the offline image, nothing to
 * build), each its own local repository, deployed through the HTTP API as a user deploys them, found on the
 * engine by a label of the bench's run, and removed again — through the API, then whatever is left on the
 * engine by the workspace ids the bench saw.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import {
  candidateProjectName,
  composeProjectName,
  LABELS,
} from '../../apps/server/src/infra/docker/conventions.js';
import { deleteWorkspaceOverHttp, deployOverHttp } from './slipwayProcess.js';

/** Labels the app's compose file puts on its container, so the bench finds its own containers and no one else's. */
export const RUN_LABEL = 'bench.slipway-scale.run';
const NAME_LABEL = 'bench.slipway-scale.workspace';
const OWNER = 'operator';
const VM_SIZE = 'Standard_B2ats_v2';

const composeFile = (runId: string, name: string) =>
  [
    'services:',
    '  web:',
    '    image: busybox:1.36',
    `    command: ["sh", "-c", "mkdir -p /www && echo ${name} > /www/index.html && exec httpd -f -p 8080 -h /www"]`,
    '    ports: ["8080"]',
    '    labels:',
    `      ${RUN_LABEL}: "${runId}"`,
    `      ${NAME_LABEL}: "${name}"`,
    '',
  ].join('\n');

/** Writes and commits the app as `{reposDir}/operator/{name}` (a git repository on branch main). */
export function createAppRepository(reposDir: string, runId: string, name: string) {
  const dir = path.join(reposDir, OWNER, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'compose.yaml'), composeFile(runId, name));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', name);
}

/** Runs `task` over `items` with at most `parallel` at a time; the first failure stops the others' next picks. */
export async function inParallel<T>(items: readonly T[], parallel: number, task: (item: T) => Promise<void>) {
  let next = 0;
  let failure: unknown;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length && failure === undefined) {
        const item = items[next++]!;
        await task(item).catch((error: unknown) => {
          failure ??= error;
        });
      }
    }),
  );
  if (failure !== undefined) throw failure;
}

/**
 * Deploys `names` (repositories already written) through POST /api/workflow/deployment/start, `parallel` at a
 * time (the server's queue runs 4 at once per replica), and gives each crash alerts by email to
 * `{name}@example.com`. Each request goes to the next replica in turn. A deployment that fails is started once
 * more (a loaded machine can fail one); the failures are returned, so the bench reports them.
 */
export async function deployFleet(
  bases: string[],
  headers: Record<string, string>,
  names: readonly string[],
  parallel: number,
): Promise<string[]> {
  let turn = 0;
  const failures: string[] = [];
  await inParallel(names, parallel, async (name) => {
    const base = bases[turn++ % bases.length]!;
    const body = { owner: OWNER, repo: name, branch: 'main', vmSize: VM_SIZE };
    for (let attempt = 1; ; attempt++) {
      const { status } = await deployOverHttp(base, headers, body, 500);
      if (status.state === 'completed') break;
      const why = `${name} (attempt ${attempt}): ${status.state}: ${status.error}`;
      failures.push(why);
      console.warn(`  deploying ${why}`);
      if (attempt === 2) throw new Error(`deploying ${why}`);
    }
    const saved = await fetch(`${base}/api/alerts/config/${name}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        global_enabled: true,
        rules: [],
        sinks: [{ sink_type: 'email', enabled: true, config: { to_email: `${name}@example.com` } }],
      }),
    });
    if (!saved.ok) throw new Error(`alert settings of ${name}: ${saved.status} ${await saved.text()}`);
  });
  return failures;
}

/** Starts a redeploy of `name` and returns the time from the request to its first step starting (ms). */
export async function deploymentStartLatency(base: string, headers: Record<string, string>, name: string) {
  const requested = Date.now();
  const { status } = await deployOverHttp(
    base,
    headers,
    { owner: OWNER, repo: name, branch: 'main', vmSize: VM_SIZE, workflowType: 'redeploy' },
    500,
  );
  if (status.state !== 'completed')
    throw new Error(`redeploying ${name} ended ${status.state}: ${status.error}`);
  const firstStarted = status.steps.map((step) => step.started_at).find((at) => at !== null);
  if (!firstStarted) throw new Error(`redeploying ${name}: no step has a start time`);
  return Date.parse(firstStarted) - requested;
}

export interface FleetContainer {
  id: string;
  workspaceName: string;
  workspaceId: string;
}

/** The run's app containers on the engine, running or not. */
export async function fleetContainers(docker: Docker, runId: string): Promise<FleetContainer[]> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [`${RUN_LABEL}=${runId}`] },
  });
  return containers.map((container) => ({
    id: container.Id,
    workspaceName: container.Labels[NAME_LABEL] ?? '?',
    workspaceId: container.Labels[LABELS.workspaceId] ?? '?',
  }));
}

/**
 * Deletes the workspaces through the API, then removes from the engine whatever of theirs is left (containers,
 * candidate containers, networks, volumes, images), by the workspace ids seen on the run's containers.
 */
export async function removeFleet(
  docker: Docker,
  runId: string,
  base: string | undefined,
  headers: Record<string, string>,
  names: readonly string[],
) {
  const ids = new Set((await fleetContainers(docker, runId)).map((container) => container.workspaceId));
  if (base) {
    await inParallel(names, 4, (name) =>
      deleteWorkspaceOverHttp(base, headers, name).catch((error: Error) => {
        if (!/404/.test(error.message)) console.warn(`deleting ${name}: ${error.message}`);
      }),
    );
  }
  const ignoreGone = () => undefined;
  for (const id of ids) {
    const projects = [composeProjectName(id), candidateProjectName(id)];
    const labelled = [`${LABELS.workspaceId}=${id}`, `${LABELS.candidateOf}=${id}`];
    for (const label of [...labelled, ...projects.map((p) => `${LABELS.composeProject}=${p}`)]) {
      for (const c of await docker.listContainers({ all: true, filters: { label: [label] } }))
        await docker.getContainer(c.Id).remove({ force: true }).catch(ignoreGone);
    }
    for (const project of projects) {
      const label = [`${LABELS.composeProject}=${project}`];
      for (const n of await docker.listNetworks({ filters: { label } }))
        await docker.getNetwork(n.Id).remove().catch(ignoreGone);
      const { Volumes } = await docker.listVolumes({ filters: { label } });
      for (const v of Volumes ?? []) await docker.getVolume(v.Name).remove().catch(ignoreGone);
    }
  }
  // By tag, never by image id: a workspace's tag may name the very image busybox:1.36 is.
  for (const image of await docker.listImages()) {
    for (const tag of image.RepoTags ?? []) {
      if ([...ids].some((id) => tag.startsWith(`slipway-${id}-`)))
        await docker.getImage(tag).remove().catch(ignoreGone);
    }
  }
  const left = await fleetContainers(docker, runId);
  for (const container of left)
    await docker.getContainer(container.id).remove({ force: true }).catch(ignoreGone);
}
