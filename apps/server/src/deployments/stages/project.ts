import { realpathSync } from 'node:fs';
import path from 'node:path';
import { writeMaterials } from '../../compose-policy/composeMaterials.js';
import {
  composeForDockerfile,
  detectProject as detect,
  listServices,
  type NormalizedService,
} from '../../infra/compose/composeProject.js';
import type { PolicyViolation } from '../../infra/compose/policyViolation.js';
import { composeProjectName } from '../../infra/docker/conventions.js';
import type { Source } from './checkout.js';
import { checkOffLoop, refuseViolations } from './composeChecks.js';

/** The service name given to a Dockerfile-only repository. */
export const DOCKERFILE_SERVICE = 'app';

/** The project as the check worker read and normalized it. */
export interface Project {
  normalized: Record<string, unknown>;
  services: NormalizedService[];
  /** The repository has a Dockerfile and no compose file: its one service publishes what its image EXPOSEs. */
  dockerfileOnly: boolean;
  /** What the sandbox rules found in it (checked with it, in the check worker); policy-check reports them. */
  violations: PolicyViolation[];
}

/**
 * Finds the compose file (or turns a lone Dockerfile into a one-service project) and reads it as the Compose
 * Specification defines it, in the check worker: every file through the repository jail, interpolated with the
 * workspace's variables over the repository's `.env`, validated, merged, and translated for the installed Compose
 * CLI; the sandbox rules check that same project. The Compose CLI first reads the result (written with every `$`
 * escaped and every path resolved) when it builds or starts it: a file it refuses fails there, in the same words
 * ("The compose file is not valid: …", composeFailures.ts), before anything is built. Reading it here as well
 * (`config`) cost every deployment ~0.45 s, the Python CLI's start. A rollback's project is the kept version's.
 */
export async function detectProject(
  source: Source,
  workspaceId: string,
  env: { key: string; value: string }[],
  log: (line: string) => void,
): Promise<Project> {
  if (source.kind === 'kept') {
    // The kept version's project was read and checked when it was deployed; it is taken as it was.
    const { normalized, services } = source.plan;
    log(`Using the project as deployed then: ${services.map((s) => s.name).join(', ')}`);
    return { normalized, services, dockerfileOnly: false, violations: [] };
  }
  const repoDir = realpathSync(source.repoDir);
  const found = detect(repoDir);
  let project: Record<string, unknown>;
  if (found.kind === 'compose') {
    const fileName = path.basename(found.file);
    log(`Found ${fileName}`);
    const read = await checkOffLoop({
      kind: 'read',
      repoDir,
      fileName,
      env: Object.fromEntries(env.map(({ key, value }) => [key, value])),
    });
    refuseViolations(log, read.violations);
    await writeMaterials(repoDir, read.materials);
    project = read.project;
  } else {
    project = composeForDockerfile(repoDir, DOCKERFILE_SERVICE);
    log(`Found a Dockerfile: deploying it as the single service '${DOCKERFILE_SERVICE}'`);
  }
  const checked = await checkOffLoop({
    kind: 'normalized',
    repoDir,
    project,
    workspaceId,
    projectName: composeProjectName(workspaceId),
  });
  const services = listServices(checked.normalized);
  log(`Services: ${services.map((s) => s.name).join(', ')}`);
  return {
    normalized: checked.normalized,
    services,
    dockerfileOnly: found.kind !== 'compose',
    violations: checked.violations,
  };
}
