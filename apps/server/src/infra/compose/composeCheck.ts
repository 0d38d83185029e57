import path from 'node:path';
import YAML from 'yaml';
import { JailError, openRepositoryJail } from '../jail/repositoryJail.js';
import { COMPOSE_LIMITS, ComposeLimitError } from './composeLimits.js';
import { buildSources, checkComposePolicy, type PolicyViolation } from './composePolicy.js';
import { checkRawCompose, jailViolation } from './composeRawPolicy.js';
import { buildArgsMap, checkDockerfile } from './dockerfilePolicy.js';

/**
 * The checks that read a tenant's files and parse its YAML — everything whose cost the tenant controls. They run
 * in the check worker (checkWorkerPool.ts), off the event loop and under a time limit; these functions are pure
 * of any server state, so tests call them directly too.
 */
export type CheckTask =
  | { kind: 'raw'; repoDir: string; fileName: string }
  | { kind: 'normalized'; repoDir: string; configText: string; workspaceId: string; projectName: string };

export type CheckResult =
  /** The project may go on; `dotEnv` is the repository's `.env` (read through the jail) for `--env-file`. */
  | { kind: 'raw'; violations: PolicyViolation[]; dotEnv: string }
  | { kind: 'normalized'; violations: PolicyViolation[]; normalized: Record<string, unknown> }
  /** A file the project cannot be read past: a limit, or the compose file itself outside the repository. */
  | { kind: 'refused'; message: string };

export function runCheck(task: CheckTask): CheckResult {
  try {
    return task.kind === 'raw' ? checkRaw(task) : checkNormalized(task);
  } catch (error) {
    if (error instanceof ComposeLimitError || error instanceof JailError) {
      return { kind: 'refused', message: error.message };
    }
    throw error;
  }
}

function checkRaw(task: Extract<CheckTask, { kind: 'raw' }>): CheckResult {
  const jail = openRepositoryJail(task.repoDir);
  const text = jail.readText(task.fileName, { maxBytes: COMPOSE_LIMITS.fileBytes });
  const violations = checkRawCompose(jail, task.fileName, text);
  let dotEnv = '';
  if (jail.exists('.env')) {
    try {
      dotEnv = jail.readText('.env', { maxBytes: COMPOSE_LIMITS.envFileBytes });
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      violations.push({ service: null, key: '.env', message: `The repository's ${error.message}` });
    }
  }
  return { kind: 'raw', violations, dotEnv };
}

function checkNormalized(task: Extract<CheckTask, { kind: 'normalized' }>): CheckResult {
  if (Buffer.byteLength(task.configText) >= COMPOSE_LIMITS.normalizedBytes) {
    throw new ComposeLimitError('The compose project is larger than 4 MiB once normalized');
  }
  const parsed: unknown = YAML.parse(task.configText, { maxAliasCount: COMPOSE_LIMITS.aliasCount });
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ComposeLimitError('The compose file could not be read');
  }
  const normalized = parsed as Record<string, unknown>;
  const jail = openRepositoryJail(task.repoDir);
  const context = { jail, workspaceId: task.workspaceId, projectName: task.projectName };
  const violations = checkComposePolicy(normalized, context);
  if (violations.length > 0) return { kind: 'normalized', violations, normalized };
  for (const build of buildSources(normalized, jail)) {
    const contextShown = path.relative(jail.root, build.context) || '.';
    try {
      for (const link of jail.findEscapingLinks(build.context, {
        maxEntries: COMPOSE_LIMITS.contextEntries,
      })) {
        violations.push({
          service: build.service,
          key: 'build.context',
          message: `Service '${build.service}' uses build.context: ${contextShown}, which holds a link pointing outside the repository (${link.link} -> ${link.target})`,
        });
      }
      const text =
        build.inline ?? jail.readText(build.dockerfile!, { maxBytes: COMPOSE_LIMITS.dockerfileBytes });
      for (const finding of checkDockerfile(text, buildArgsMap(build.args), task.workspaceId)) {
        violations.push({
          service: build.service,
          key: 'build.dockerfile',
          message: `Service '${build.service}' builds ${finding.instruction} (${finding.reason}), which is not allowed`,
        });
      }
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      violations.push(jailViolation(build.service, 'build.dockerfile', build.dockerfileGiven, error));
    }
  }
  return { kind: 'normalized', violations, normalized };
}
