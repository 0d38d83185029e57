import { describe, expect, it } from 'vitest';
import type { ServiceRole } from '../../health/serviceRoles.js';
import { LABELS } from '../../infra/docker/conventions.js';
import { applyRuntimePlan } from './runtimePlan.js';

const role = (name: string, replicas?: number): ServiceRole => ({
  name,
  publishedPorts: [8080],
  oneShot: false,
  healthcheck: false,
  restart: undefined,
  ...(replicas ? { replicas } : {}),
});

describe('the runtime plan of replicas', () => {
  it('publishes N replicas on a range of N host ports and writes the count both Compose CLIs read', () => {
    const out = applyRuntimePlan(
      { services: { web: { image: 'x', scale: 5, ports: ['8080'] }, api: { image: 'y', ports: ['8080'] } } },
      {
        roles: [role('web', 3), role('api')],
        hostPorts: { web: { 8080: 21000 }, api: { 8080: 22000 } },
        publishAddress: '127.0.0.1',
      },
    ) as { services: Record<string, Record<string, unknown>> };
    expect(out.services.web).toMatchObject({
      ports: ['127.0.0.1:21000-21002:8080/tcp'],
      deploy: { replicas: 3 },
      labels: { [LABELS.replicas]: '3' },
    });
    expect(out.services.web).not.toHaveProperty('scale');
    // A single service that never asked for replicas keeps its file as it was.
    expect(out.services.api).toEqual({ image: 'y', ports: ['127.0.0.1:22000:8080/tcp'] });
  });

  it('writes one replica when the stored count brings a replicated service down to one', () => {
    const out = applyRuntimePlan(
      { services: { web: { image: 'x', deploy: { replicas: 3 } } } },
      { roles: [role('web', 1)], hostPorts: { web: { 8080: 21000 } }, publishAddress: '127.0.0.1' },
    ) as { services: Record<string, Record<string, unknown>> };
    expect(out.services.web).toMatchObject({ deploy: { replicas: 1 }, ports: ['127.0.0.1:21000:8080/tcp'] });
  });
});
