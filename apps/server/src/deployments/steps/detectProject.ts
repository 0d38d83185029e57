import { realpathSync } from 'node:fs';
import path from 'node:path';
import { writeMaterials } from '../../infra/compose/composeMaterials.js';
import {
  composeForDockerfile,
  detectProject as detect,
  listServices,
} from '../../infra/compose/composeProject.js';
import { composeProjectName } from '../../infra/docker/conventions.js';
import type { RunState } from '../runState.js';
import { checkOffLoop, refuseViolations } from './composeChecks.js';

/** The service name given to a Dockerfile-only repository. */
export const DOCKERFILE_SERVICE = 'app';

/**
 * Finds the compose file (or turns a lone Dockerfile into a one-service project) and reads it as the Compose
 * Specification defines it, in the check worker: every file through the repository jail, interpolated with the
 * workspace's variables over the repository's `.env`, validated, merged, and translated for the installed Compose
 * CLI; the sandbox rules check that same project. The Compose CLI first reads the result (written with every `$`
 * escaped and every path resolved) when it builds or starts it: a file it refuses fails there, in the same words
 * ("The compose file is not valid: …", failureReport.ts), before anything is built. Reading it here as well
 * (`config`) cost every deployment ~0.45 s, the Python CLI's start.
 */
export async function detectProject(state: RunState) {
  if (state.rollbackTo) {
    // The kept version's project was read and checked when it was deployed; it is taken as it was.
    state.normalized = state.rollbackTo.normalized;
    state.services = state.rollbackTo.services;
    state.policyViolations = [];
    state.log.write(`Using the project as deployed then: ${state.services.map((s) => s.name).join(', ')}`);
    return;
  }
  const repoDir = realpathSync(state.repoDir!);
  const found = detect(repoDir);
  let project: Record<string, unknown>;
  if (found.kind === 'compose') {
    const fileName = path.basename(found.file);
    state.log.write(`Found ${fileName}`);
    const env = Object.fromEntries(state.env.map(({ key, value }) => [key, value]));
    const read = await checkOffLoop({ kind: 'read', repoDir, fileName, env });
    refuseViolations(state, read.violations);
    await writeMaterials(repoDir, read.materials);
    project = read.project;
  } else {
    project = composeForDockerfile(repoDir, DOCKERFILE_SERVICE);
    state.log.write(`Found a Dockerfile: deploying it as the single service '${DOCKERFILE_SERVICE}'`);
  }
  state.dockerfileOnly = found.kind !== 'compose';
  const checked = await checkOffLoop({
    kind: 'normalized',
    repoDir,
    project,
    workspaceId: state.workspace.id,
    projectName: composeProjectName(state.workspace.id),
  });
  state.normalized = checked.normalized;
  state.policyViolations = checked.violations;
  state.services = listServices(state.normalized);
  state.log.write(`Services: ${state.services.map((s) => s.name).join(', ')}`);
}
