import type { CadvisorContainerInfo, CadvisorMachineInfo } from '@slipway/contract';
import { DomainError } from '../../domain/errors.js';
import type { ContainerMonitor } from './containerMonitor.js';

const TIMEOUT_MS = 10_000;

/** Reads a real cAdvisor's v1.3 API. Only JSON is passed on: an HTML page is an error, never a body. */
export function createCadvisorProxy(baseUrl: string): ContainerMonitor {
  const base = baseUrl.replace(/\/$/, '');

  async function getJson<T>(path: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new DomainError('upstream_failed', `cAdvisor is not reachable: ${(error as Error).message}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok) {
      throw new DomainError('upstream_failed', `cAdvisor answered HTTP ${response.status} for ${path}`);
    }
    if (!type.includes('json')) {
      throw new DomainError('upstream_failed', `cAdvisor answered ${type || 'no content type'}, not JSON`);
    }
    try {
      return (await response.json()) as T;
    } catch {
      throw new DomainError('upstream_failed', 'cAdvisor answered invalid JSON');
    }
  }

  return {
    source: 'cadvisor',
    machine: () => getJson<CadvisorMachineInfo>('/api/v1.3/machine'),
    async containers() {
      // The root lists its subcontainers by name only; the docker map holds their specs and stats.
      const [root, docker] = await Promise.all([
        getJson<CadvisorContainerInfo>('/api/v1.3/containers/'),
        getJson<Record<string, CadvisorContainerInfo>>('/api/v1.3/docker/'),
      ]);
      return { ...root, subcontainers: Object.values(docker) };
    },
  };
}
