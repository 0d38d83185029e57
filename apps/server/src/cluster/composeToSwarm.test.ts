import { describe, expect, it } from 'vitest';
import { maxReplicasPerNode, translateToSwarm } from './composeToSwarm.js';
import { shellWords } from './composeValues.js';
import type { SwarmTranslationInput } from './swarmPlan.js';

const WS = '11111111-2222-3333-4444-555555555555';
const image = (service: string) => `10.250.0.11:5000/ws/${service}@sha256:${'a'.repeat(64)}`;

function translate(
  services: Record<string, Record<string, unknown>>,
  extra: Partial<SwarmTranslationInput> = {},
) {
  return translateToSwarm({
    workspaceId: WS,
    userId: 'u1',
    project: { services, volumes: { data: null } },
    repoDir: '/repo',
    nodeIds: ['n1', 'n2', 'n3'],
    images: Object.fromEntries(Object.keys(services).map((s) => [s, image(s)])),
    replicas: {},
    publishedPorts: {},
    limits: { cpusPerService: 1, memoryBytesPerService: 512 * 1024 * 1024 },
    encrypted: false,
    pathKind: () => 'file',
    ...extra,
  });
}

function plan(result: ReturnType<typeof translate>) {
  if (result.kind !== 'plan') throw new Error(result.violations.map((v) => v.message).join('\n'));
  return result.plan;
}

describe('the Compose to Swarm translation', () => {
  it('spreads a replicated web over the nodes on host-mode ports and pins a database with a volume', () => {
    const result = plan(
      translate(
        {
          web: { build: { context: '/repo' }, depends_on: { db: { condition: 'service_healthy' } } },
          db: { image: 'postgres:16', volumes: ['data:/var/lib/postgresql/data'], restart: 'always' },
        },
        { replicas: { web: 3 }, publishedPorts: { web: [8080] } },
      ),
    );
    const web = result.services.find((s) => s.service === 'web')!.spec;
    const db = result.services.find((s) => s.service === 'db')!;
    expect(web.TaskTemplate.ContainerSpec.Image).toBe(image('web'));
    expect(web.Mode).toEqual({ Replicated: { Replicas: 3 } });
    expect(web.TaskTemplate.Placement).toEqual({
      Preferences: [{ Spread: { SpreadDescriptor: 'node.id' } }],
      MaxReplicas: 2,
    });
    expect(web.EndpointSpec).toEqual({
      Mode: 'dnsrr',
      Ports: [{ Protocol: 'tcp', TargetPort: 8080, PublishedPort: 0, PublishMode: 'host' }],
    });
    expect(web.UpdateConfig).toMatchObject({
      Order: 'start-first',
      FailureAction: 'rollback',
      Parallelism: 1,
    });
    expect(db.pinnedTo).toBe('n1');
    expect(db.spec.Mode).toEqual({ Replicated: { Replicas: 1 } });
    expect(db.spec.TaskTemplate.Placement.Constraints).toEqual(['node.id==n1']);
    expect(db.spec.UpdateConfig?.Order).toBe('stop-first');
    expect(db.spec.TaskTemplate.RestartPolicy.Condition).toBe('any');
    expect(db.spec.TaskTemplate.ContainerSpec.Mounts).toEqual([
      { Type: 'volume', Source: `slipway-${WS}_data`, Target: '/var/lib/postgresql/data', ReadOnly: false },
    ]);
    expect(result.order).toEqual([['db'], ['web']]);
    expect(result.waits.web).toEqual([{ service: 'db', condition: 'service_healthy' }]);
    expect(result.networks.map((n) => n.name)).toEqual([`slipway-${WS}_default`]);
    expect(web.TaskTemplate.Networks).toEqual([{ Target: `slipway-${WS}_default`, Aliases: ['web'] }]);
  });

  it('keeps a volume on the node it already lives on', () => {
    const result = plan(translate({ db: { image: 'x', volumes: ['data:/d'] } }, { pinned: { db: 'n3' } }));
    expect(result.pins).toEqual({ db: 'n3' });
  });

  it('translates restart, one-shots, commands, health checks, container_name and links', () => {
    const result = plan(
      translate({
        migrate: { image: 'x', command: 'sh -c "echo \'done now\'"' },
        web: {
          image: 'x',
          container_name: 'frontend',
          links: ['api:backend'],
          depends_on: { migrate: { condition: 'service_completed_successfully' } },
          restart: 'on-failure:3',
          healthcheck: { test: 'wget -q localhost', interval: '1m30s', retries: 3, start_period: '500ms' },
        },
        api: { image: 'x', restart: 'no' },
      }),
    );
    const byName = Object.fromEntries(result.services.map((s) => [s.service, s]));
    expect(byName.migrate!.oneShot).toBe(true);
    expect(byName.migrate!.spec.Mode).toEqual({ ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 1 } });
    expect(byName.migrate!.spec.UpdateConfig).toBeUndefined();
    expect(byName.migrate!.spec.TaskTemplate.ContainerSpec.Args).toEqual(['sh', '-c', "echo 'done now'"]);
    expect(byName.web!.spec.TaskTemplate.RestartPolicy).toMatchObject({
      Condition: 'on-failure',
      MaxAttempts: 3,
    });
    expect(byName.api!.spec.TaskTemplate.RestartPolicy).toEqual({ Condition: 'none' });
    expect(byName.web!.spec.TaskTemplate.ContainerSpec.HealthCheck).toEqual({
      Test: ['CMD-SHELL', 'wget -q localhost'],
      Interval: 90e9,
      Retries: 3,
      StartPeriod: 500e6,
    });
    expect(byName.web!.spec.TaskTemplate.Networks[0]!.Aliases).toEqual(['web', 'frontend']);
    expect(byName.api!.spec.TaskTemplate.Networks[0]!.Aliases).toEqual(['api', 'backend']);
    expect(result.order).toEqual([['migrate', 'api'], ['web']]);
  });

  it('refuses what Swarm cannot honour, naming the service and the key', () => {
    const result = translate({
      app: {
        image: 'x',
        network_mode: 'service:db',
        deploy: { placement: { constraints: ['node.role==manager'] } },
      },
      db: { image: 'x', volumes: ['/repo/data:/data'] },
    });
    expect(result).toEqual({
      kind: 'refused',
      violations: [
        {
          service: 'app',
          key: 'network_mode',
          message:
            "Service 'app' uses network_mode: service:db, which a cluster cannot honour: Swarm runs every replica in a network namespace of its own",
        },
        {
          service: 'app',
          key: 'deploy.placement',
          message:
            'Service \'app\' uses deploy.placement: {"constraints":["node.role==manager"]}, which a cluster cannot honour: Slipway places the replicas itself (spread over the nodes, a service with a volume on its node)',
        },
        {
          service: 'db',
          key: 'volumes',
          message:
            "Service 'db' uses volumes: ./data:/data, which a cluster cannot honour: a writable bind mount keeps its data on one node (use a named volume)",
        },
      ],
    });
  });

  it('gives each node room for a start-first update and for the replicas of a lost node', () => {
    expect(maxReplicasPerNode(3, 3)).toBe(2);
    expect(maxReplicasPerNode(10, 3)).toBe(5);
    expect(maxReplicasPerNode(1, 2)).toBe(2);
  });

  it('splits a command string as Compose does', () => {
    expect(shellWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f g']);
    expect(shellWords(`unterminated "quote`)).toBeUndefined();
  });
});
