import { realpathSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { checkRawComposeFiles } from '../../infra/compose/composePolicy.js';
import {
  composeForDockerfile,
  detectProject as detect,
  listServices,
  parseNormalizedConfig,
} from '../../infra/compose/composeProject.js';
import { CommandError } from '../../infra/compose/runCommand.js';
import { composeProjectName } from '../../infra/docker/conventions.js';
import { type RunState, StepFailure } from '../runState.js';

/** The service name given to a Dockerfile-only repository. */
export const DOCKERFILE_SERVICE = 'app';

/**
 * Finds the compose file (or turns a lone Dockerfile into a one-service project) and asks Compose for the
 * normalized config, which the policy step then checks. Host files the raw file points at are refused first,
 * because normalizing would read them.
 */
export async function detectProject(state: RunState) {
  const repoDir = realpathSync(state.repoDir!);
  const found = detect(repoDir);
  let file: string;
  if (found.kind === 'compose') {
    file = found.file;
    state.log.write(`Found ${path.basename(file)}`);
    let raw: unknown;
    try {
      raw = YAML.parse(await readFile(file, 'utf8'), { maxAliasCount: 100 });
    } catch (error) {
      throw new StepFailure(
        `${path.basename(file)} is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    const violations = checkRawComposeFiles(raw, repoDir);
    if (violations.length > 0) throw new StepFailure(violations.map((v) => v.message).join('; '));
  } else {
    file = path.join(state.workDir, 'dockerfile.compose.yml');
    await writeFile(file, composeForDockerfile(repoDir, DOCKERFILE_SERVICE));
    state.log.write(`Found a Dockerfile: deploying it as the single service '${DOCKERFILE_SERVICE}'`);
  }
  state.sourceComposeFile = file;
  const compose = state.compose!;
  const args = compose.flavour === 'v2' ? ['config', '--format', 'json'] : ['config'];
  try {
    const { stdout } = await compose.run(composeProjectName(state.workspace.id), [file], args, {
      cwd: repoDir,
      // `${HOME}` in the user's file must not reveal the server's home; nothing else is there to interpolate.
      env: { HOME: state.workDir },
      timeoutMs: 60_000,
      signal: state.signal,
    });
    state.normalized = parseNormalizedConfig(stdout);
  } catch (error) {
    if (error instanceof CommandError) {
      const reason = error.result.stderr.trim().split('\n').slice(-3).join(' ');
      throw new StepFailure(`The compose file is not valid: ${reason || error.message}`);
    }
    throw error;
  }
  state.services = listServices(state.normalized);
  state.log.write(`Services: ${state.services.map((s) => s.name).join(', ')}`);
}
