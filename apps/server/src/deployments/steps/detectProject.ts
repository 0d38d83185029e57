import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COMPOSE_LIMITS } from '../../infra/compose/composeLimits.js';
import { writeMaterials } from '../../infra/compose/composeMaterials.js';
import {
  composeForDockerfile,
  detectProject as detect,
  listServices,
  stringifyCompose,
} from '../../infra/compose/composeProject.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { composeProjectName } from '../../infra/docker/conventions.js';
import { openRepositoryJail } from '../../infra/jail/repositoryJail.js';
import { type RunState, StepFailure } from '../runState.js';
import { checkOffLoop, refuseViolations } from './composeChecks.js';

/** The service name given to a Dockerfile-only repository. */
export const DOCKERFILE_SERVICE = 'app';

/**
 * Finds the compose file (or turns a lone Dockerfile into a one-service project) and reads it as the Compose
 * Specification defines it, in the check worker: every file through the repository jail, interpolated with the
 * workspace's variables over the repository's `.env`, validated, merged, and translated for the installed Compose
 * CLI. The Compose CLI then only confirms it can read the result (written with every `$` escaped and every
 * path resolved), and the sandbox rules check that same project.
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
    state.sourceComposeFile = openRepositoryJail(repoDir).resolve(fileName);
  } else {
    project = composeForDockerfile(repoDir, DOCKERFILE_SERVICE);
    state.log.write(`Found a Dockerfile: deploying it as the single service '${DOCKERFILE_SERVICE}'`);
  }
  const file = path.join(state.workDir, 'project.compose.yml');
  await writeFile(file, stringifyCompose(project), { mode: 0o600 });
  state.sourceComposeFile ??= file;
  // The Compose CLI's reading (a process of its own) and the sandbox check (a worker thread) are independent:
  // they run side by side, and the CLI's refusal is reported first, as it would be if they ran in turn.
  const [confirmed, normalized] = await Promise.allSettled([
    confirmComposeReads(state, repoDir, file),
    checkOffLoop({
      kind: 'normalized',
      repoDir,
      project,
      workspaceId: state.workspace.id,
      projectName: composeProjectName(state.workspace.id),
    }),
  ]);
  if (confirmed.status === 'rejected') throw confirmed.reason;
  if (normalized.status === 'rejected') throw normalized.reason;
  const checked = normalized.value;
  state.normalized = checked.normalized;
  state.policyViolations = checked.violations;
  state.services = listServices(state.normalized);
  state.log.write(`Services: ${state.services.map((s) => s.name).join(', ')}`);
}

/** The installed Compose CLI must accept the written project (`config`), or the user hears why now. */
async function confirmComposeReads(state: RunState, repoDir: string, file: string) {
  const envFile = path.join(state.workDir, 'project.env');
  await writeFile(envFile, '', { mode: 0o600 });
  const compose = state.compose!;
  try {
    await compose.run(
      composeProjectName(state.workspace.id),
      [file],
      ['--project-directory', repoDir, '--env-file', envFile, 'config', '--quiet'],
      {
        cwd: repoDir,
        env: { HOME: state.workDir },
        timeoutMs: 60_000,
        signal: state.signal,
        keepBytes: COMPOSE_LIMITS.normalizedBytes,
      },
    );
  } catch (error) {
    if (error instanceof CommandError) {
      const reason = error.result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new StepFailure(`The compose file is not valid: ${reason || error.message}`);
    }
    throw error;
  }
}
