import { realpathSync } from 'node:fs';
import { ComposeReadError } from '../infra/compose/composeInterpolation.js';
import { COMPOSE_LIMITS, ComposeLimitError } from '../infra/compose/composeLimits.js';
import type { Obj } from '../infra/compose/composeMerge.js';
import { jailRefusal, jailViolation, repositoryPath } from '../infra/compose/composeRawPolicy.js';
import { interpolationEnv, readComposeModel } from '../infra/compose/composeReader.js';
import { type Material, translateForComposeV1 } from '../infra/compose/composeV1.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import { JailError, openRepositoryJail } from '../infra/jail/repositoryJail.js';
import { buildSources, checkComposePolicy } from './composePolicy.js';
import { buildArgsMap, checkDockerfile } from './dockerfilePolicy.js';

/**
 * The checks that read a tenant's files and parse its YAML — everything whose cost the tenant controls. They run
 * in the check worker (checkWorkerPool.ts), off the event loop and under a time limit; these functions are pure
 * of any server state, so tests call them directly too.
 *
 * `read` reads the project as the Compose Specification defines it (composeReader.ts) and translates it for every
 * Compose CLI (composeV1.ts); `normalized` checks that project against the sandbox rules (composePolicy.ts).
 */
export type CheckTask =
  | { kind: 'read'; repoDir: string; fileName: string; env: Record<string, string> }
  | { kind: 'normalized'; repoDir: string; project: Obj; workspaceId: string; projectName: string };

export type CheckResult =
  /** `project` is the model to write (absolute paths, literal values); `materials` are files it expects. */
  | { kind: 'read'; violations: PolicyViolation[]; project: Obj; materials: Material[] }
  | { kind: 'normalized'; violations: PolicyViolation[]; normalized: Obj }
  /** A file the project cannot be read past: a limit, an invalid file, or the compose file outside the repository. */
  | { kind: 'refused'; message: string };

export function runCheck(task: CheckTask): CheckResult {
  try {
    return task.kind === 'read' ? checkRead(task) : checkNormalized(task);
  } catch (error) {
    if (error instanceof JailError) {
      return { kind: 'refused', message: jailRefusal(realpathSync(task.repoDir), error) };
    }
    if (error instanceof ComposeLimitError || error instanceof ComposeReadError) {
      return { kind: 'refused', message: error.message };
    }
    throw error;
  }
}

function checkRead(task: Extract<CheckTask, { kind: 'read' }>): CheckResult {
  const jail = openRepositoryJail(task.repoDir);
  const violations: PolicyViolation[] = [];
  let dotEnv = '';
  if (jail.exists('.env')) {
    try {
      dotEnv = jail.readText('.env', { maxBytes: COMPOSE_LIMITS.envFileBytes });
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      violations.push({ service: null, key: '.env', message: `The repository's ${error.message}` });
    }
  }
  // The compose file itself is refused outright when it leads out of the repository.
  jail.readText(task.fileName, { maxBytes: COMPOSE_LIMITS.fileBytes });
  const env = interpolationEnv(dotEnv, task.env);
  const ctx = { jail, env, violations, loading: new Set<string>(), loaded: new Map<string, Obj>() };
  const { model, profiled } = readComposeModel(ctx, task.fileName);
  if (violations.length > 0) return { kind: 'read', violations, project: {}, materials: [] };
  const translated = translateForComposeV1(model, { jail, env, profiled });
  return { kind: 'read', ...translated };
}

function checkNormalized(task: Extract<CheckTask, { kind: 'normalized' }>): CheckResult {
  if (Buffer.byteLength(JSON.stringify(task.project)) >= COMPOSE_LIMITS.normalizedBytes) {
    throw new ComposeLimitError('The compose project is larger than 4 MiB once normalized');
  }
  const normalized = task.project;
  const jail = openRepositoryJail(task.repoDir);
  const context = { jail, workspaceId: task.workspaceId, projectName: task.projectName };
  const violations = checkComposePolicy(normalized, context);
  if (violations.length > 0) return { kind: 'normalized', violations, normalized };
  for (const build of buildSources(normalized, jail)) {
    const contextShown = repositoryPath(jail.root, build.context);
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
      violations.push(
        jailViolation(jail.root, build.service, 'build.dockerfile', build.dockerfileGiven, error),
      );
    }
  }
  return { kind: 'normalized', violations, normalized };
}
