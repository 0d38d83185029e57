import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COMPOSE_LIMITS } from '../../infra/compose/composeLimits.js';
import {
  composeForDockerfile,
  detectProject as detect,
  listServices,
} from '../../infra/compose/composeProject.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { composeProjectName } from '../../infra/docker/conventions.js';
import { openRepositoryJail } from '../../infra/jail/repositoryJail.js';
import { type RunState, StepFailure } from '../runState.js';
import { checkOffLoop, refuseViolations } from './composeChecks.js';

/** The service name given to a Dockerfile-only repository. */
export const DOCKERFILE_SERVICE = 'app';

/**
 * Finds the compose file (or turns a lone Dockerfile into a one-service project) and asks Compose for the
 * normalized config. Before Compose reads anything, the raw file and every file it names (env_file, extends,
 * .env) are read and checked by us through the repository jail, in the check worker; Compose then gets the
 * checked real paths and a copy of `.env`, never a path we have not resolved.
 */
export async function detectProject(state: RunState) {
  const repoDir = realpathSync(state.repoDir!);
  const found = detect(repoDir);
  let file: string;
  let dotEnv = '';
  if (found.kind === 'compose') {
    const fileName = path.basename(found.file);
    state.log.write(`Found ${fileName}`);
    const raw = await checkOffLoop({ kind: 'raw', repoDir, fileName });
    refuseViolations(state, raw.violations);
    dotEnv = raw.dotEnv;
    file = openRepositoryJail(repoDir).resolve(fileName);
  } else {
    file = path.join(state.workDir, 'dockerfile.compose.yml');
    await writeFile(file, composeForDockerfile(repoDir, DOCKERFILE_SERVICE));
    state.log.write(`Found a Dockerfile: deploying it as the single service '${DOCKERFILE_SERVICE}'`);
  }
  state.sourceComposeFile = file;
  const envFile = path.join(state.workDir, 'project.env');
  await writeFile(envFile, dotEnv, { mode: 0o600 });
  const compose = state.compose!;
  const projectName = composeProjectName(state.workspace.id);
  const args = [
    '--project-directory',
    repoDir,
    '--env-file',
    envFile,
    ...(compose.flavour === 'v2' ? ['config', '--format', 'json'] : ['config']),
  ];
  let configText: string;
  try {
    const { stdout } = await compose.run(projectName, [file], args, {
      cwd: repoDir,
      // `${HOME}` in the user's file must not reveal the server's home; nothing else is there to interpolate.
      env: { HOME: state.workDir },
      timeoutMs: 60_000,
      signal: state.signal,
      keepBytes: COMPOSE_LIMITS.normalizedBytes,
    });
    configText = stdout;
  } catch (error) {
    if (error instanceof CommandError) {
      const reason = error.result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new StepFailure(`The compose file is not valid: ${reason || error.message}`);
    }
    throw error;
  }
  const checked = await checkOffLoop({
    kind: 'normalized',
    repoDir,
    configText,
    workspaceId: state.workspace.id,
    projectName,
  });
  state.normalized = checked.normalized;
  state.policyViolations = checked.violations;
  state.services = listServices(state.normalized);
  state.log.write(`Services: ${state.services.map((s) => s.name).join(', ')}`);
}
