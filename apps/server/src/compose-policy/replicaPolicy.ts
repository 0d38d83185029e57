import { MAX_SERVICE_REPLICAS } from '@slipway/contract';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The most containers one service may run on a workspace's VM. */
export const MAX_REPLICAS = MAX_SERVICE_REPLICAS;
/** What every container needs at least (the floor of the VM's memory divided among them). */
export const MIN_CONTAINER_MEMORY_MB = 64;

/** The replicas a service asks for in its Compose file: `deploy.replicas`, else `scale` (v1's key), else 1. */
export function requestedReplicas(service: Obj): number {
  const deploy = isObj(service.deploy) ? service.deploy : {};
  const raw = deploy.replicas ?? service.scale;
  const count = typeof raw === 'string' ? Number(raw) : raw;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : 1;
}

/** The named volume a service mounts (its first), or undefined: bind mounts and tmpfs are not named volumes. */
export function namedVolumeOf(service: Obj): string | undefined {
  for (const entry of Array.isArray(service.volumes) ? service.volumes : []) {
    if (typeof entry === 'string') {
      const [source = ''] = entry.split(':');
      if (entry.includes(':') && !/^[/.~]/.test(source)) return source;
    } else if (isObj(entry) && entry.type === 'volume' && typeof entry.source === 'string') {
      return entry.source;
    }
  }
  return undefined;
}

/** A Compose byte value (`512M`, `1g`, `1.5GB`, a number of bytes) in MB, or undefined. */
export function megabytes(value: unknown): number | undefined {
  if (typeof value === 'number') return value / 1024 / 1024;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([bkmgt]?)b?$/i.exec(value.trim());
  if (!match) return undefined;
  const power = { b: -2, '': -2, k: -1, m: 0, g: 1, t: 2 }[match[2]!.toLowerCase()] ?? 0;
  return Number(match[1]) * 1024 ** power;
}

/** The memory (MB) and CPUs one container of the service declares it needs, where it says. */
function declaredNeed(service: Obj): { memoryMb?: number; cpus?: number } {
  const resources = isObj(service.deploy) && isObj(service.deploy.resources) ? service.deploy.resources : {};
  const limits = isObj(resources.limits) ? resources.limits : {};
  const reservations = isObj(resources.reservations) ? resources.reservations : {};
  const memory = [reservations.memory, limits.memory, service.mem_reservation, service.mem_limit]
    .map(megabytes)
    .find((mb) => mb !== undefined);
  const cpus = [reservations.cpus, limits.cpus, service.cpus]
    .map((value) => (typeof value === 'string' ? Number(value) : value))
    .find((value): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0);
  return { ...(memory !== undefined ? { memoryMb: memory } : {}), ...(cpus !== undefined ? { cpus } : {}) };
}

export interface VmBudget {
  name: string;
  vcpus: number;
  memoryMb: number;
}

/**
 * The replicas of each service (the override the workspace stores wins over the file), refused with a sentence
 * when they cannot run: more than {@link MAX_REPLICAS}; several sharing one named volume (two databases on one
 * data directory); or more containers than the VM size's memory and CPUs hold, counting what each declares.
 */
export function checkReplicas(
  services: Record<string, Obj>,
  options: { overrides: Record<string, number>; vm: VmBudget },
): { replicas: Record<string, number>; violations: PolicyViolation[] } {
  const replicas: Record<string, number> = {};
  const violations: PolicyViolation[] = [];
  const refuse = (service: string, message: string) =>
    violations.push({ service, key: 'deploy.replicas', message });
  for (const [name, service] of Object.entries(services)) {
    const count = options.overrides[name] ?? requestedReplicas(service);
    replicas[name] = count;
    if (count <= 1) continue;
    if (count > MAX_REPLICAS) {
      refuse(name, `${name} asks for ${count} replicas; a service runs at most ${MAX_REPLICAS}`);
      continue;
    }
    const volume = namedVolumeOf(service);
    if (volume !== undefined) {
      refuse(
        name,
        `${name} keeps data in the named volume ${volume}: two replicas would share one data directory; run one replica`,
      );
    }
  }
  let memoryMb = 0;
  let cpus = 0;
  for (const [name, service] of Object.entries(services)) {
    const need = declaredNeed(service);
    const count = Math.min(replicas[name] ?? 1, MAX_REPLICAS);
    memoryMb += count * Math.max(MIN_CONTAINER_MEMORY_MB, need.memoryMb ?? 0);
    cpus += count * (need.cpus ?? 0);
  }
  const replicated = Object.entries(replicas).filter(([, count]) => count > 1 && count <= MAX_REPLICAS);
  if (replicated.length > 0 && (memoryMb > options.vm.memoryMb || cpus > options.vm.vcpus)) {
    const [name, count] = replicated[0]!;
    const what =
      memoryMb > options.vm.memoryMb
        ? `${Math.ceil(memoryMb)} MB of memory, more than its ${options.vm.memoryMb} MB`
        : `${Number(cpus.toFixed(2))} CPUs, more than its ${options.vm.vcpus}`;
    refuse(
      name,
      `${count} replicas of ${name} do not fit the ${options.vm.name} VM: its containers would need ${what}; run fewer replicas or choose a larger VM size`,
    );
  }
  return { replicas, violations };
}
