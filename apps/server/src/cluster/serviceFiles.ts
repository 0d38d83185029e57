import { isObj, type Obj } from '../infra/compose/composeMerge.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import type { PlannedFile } from './swarmPlan.js';

/**
 * A service's `secrets` and `configs`: each top-level entry is a file of the checkout by now (the reader writes
 * inline `content` and `environment` ones as files), made a Swarm secret or config of the same bytes.
 */
export function serviceFiles(
  name: string,
  service: Obj,
  context: { filePrefix: (given: string) => string; project: Obj; violations: PolicyViolation[] },
): PlannedFile[] {
  const files: PlannedFile[] = [];
  for (const kind of ['secret', 'config'] as const) {
    const section = `${kind}s` as const;
    const declared = isObj(context.project[section]) ? (context.project[section] as Obj) : {};
    for (const raw of Array.isArray(service[section]) ? service[section] : []) {
      const ref: Obj = isObj(raw) ? raw : { source: String(raw) };
      const source = String(ref.source ?? '');
      const top = isObj(declared[source]) ? (declared[source] as Obj) : {};
      if (typeof top.file !== 'string') {
        context.violations.push({
          service: name,
          key: section,
          message: `Service '${name}' uses ${section}: ${source}, which is not a file of the repository`,
        });
        continue;
      }
      let target = typeof ref.target === 'string' ? ref.target : kind === 'secret' ? source : `/${source}`;
      if (kind === 'secret' && target.startsWith('/')) {
        if (!target.startsWith('/run/secrets/')) {
          context.violations.push({
            service: name,
            key: 'secrets',
            message: `Service '${name}' uses secrets: ${source} with target ${target}, which a cluster cannot honour: Swarm mounts secrets under /run/secrets only`,
          });
          continue;
        }
        target = target.slice('/run/secrets/'.length);
      }
      const mode = typeof ref.mode === 'number' ? ref.mode : Number.parseInt(String(ref.mode ?? '444'), 8);
      files.push({
        kind,
        source: top.file,
        prefix: context.filePrefix(source),
        target,
        uid: String(ref.uid ?? '0'),
        gid: String(ref.gid ?? '0'),
        mode: Number.isFinite(mode) ? mode : 0o444,
      });
    }
  }
  return files;
}
