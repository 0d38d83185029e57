import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  checkComposePolicy,
  isInside,
  isWorkspaceImage,
  type PolicyViolation,
} from '../../infra/compose/composePolicy.js';
import { type RunState, StepFailure } from '../runState.js';

/** Refuses a project that would escape its sandbox, naming the service and key, before anything runs. */
export async function policyCheck(state: RunState) {
  const repoDir = realpathSync(state.repoDir!);
  const violations = checkComposePolicy(state.normalized, repoDir);
  // A build context that is a symlink out of the repository passes the path check above; its real path does not.
  for (const service of Object.entries(
    (state.normalized?.services ?? {}) as Record<string, { build?: unknown }>,
  )) {
    const build = service[1]?.build;
    const context = typeof build === 'string' ? build : (build as { context?: string } | undefined)?.context;
    if (!context || /^[a-z]+:\/\//i.test(context)) continue;
    let real: string;
    try {
      real = realpathSync(path.resolve(repoDir, context));
    } catch {
      throw new StepFailure(`Service '${service[0]}' has a build context that does not exist: ${context}`);
    }
    if (!isInside(repoDir, real)) {
      violations.push({
        service: service[0],
        key: 'build.context',
        message: `Service '${service[0]}' uses build.context: ${context} (outside the repository), which is not allowed`,
      });
    }
  }
  violations.push(...(await checkDockerfileBases(state, repoDir)));
  if (violations.length > 0) {
    for (const violation of violations) state.log.write(`Refused: ${violation.message}`);
    throw new StepFailure(violations.map((v) => v.message).join('; '), {
      failure_reason: 'The compose configuration breaks the sandbox rules',
      policy_violations: violations.map((v) => v.message),
    });
  }
  state.log.write('The compose configuration follows the sandbox rules');
}

/** `FROM` lines naming another workspace's image (after substituting the Dockerfile's ARG defaults). */
async function checkDockerfileBases(state: RunState, repoDir: string): Promise<PolicyViolation[]> {
  const found: PolicyViolation[] = [];
  const services = (state.normalized?.services ?? {}) as Record<
    string,
    { build?: { context?: string; dockerfile?: string } }
  >;
  for (const [name, service] of Object.entries(services)) {
    const build = service?.build;
    if (!build?.context) continue;
    const text = await readFile(
      path.resolve(repoDir, build.context, build.dockerfile ?? 'Dockerfile'),
      'utf8',
    ).catch(() => '');
    const args = new Map<string, string>();
    for (const line of text.split('\n')) {
      const arg = line.match(/^\s*ARG\s+([A-Za-z_][A-Za-z0-9_]*)=("?)([^"\s]*)\2/i);
      if (arg) args.set(arg[1]!, arg[3]!);
      const from = line.match(/^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)/i)?.[1];
      if (!from) continue;
      const image = from.replace(
        /\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g,
        (_, key: string) => args.get(key) ?? '',
      );
      if (isWorkspaceImage(image)) {
        found.push({
          service: name,
          key: 'build',
          message: `Service '${name}' builds FROM ${from} (images of other workspaces), which is not allowed`,
        });
      }
    }
  }
  return found;
}
