import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  escapeCompose,
  finalizeConfig,
  listServices,
  stringifyCompose,
} from '../infra/compose/composeProject.js';
import { openRepositoryJail } from '../infra/jail/repositoryJail.js';
import { refusalSentences } from '../test/refusalSentences.js';
import { checkComposePolicy } from './composePolicy.js';

const REPO = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-policy-')));
mkdirSync(path.join(REPO, 'web'));
/** Every sentence these rules produce is looked at once more at the end: none shows where the checkout is. */
const refusals = refusalSentences();
afterAll(() => {
  refusals.expectNoHostPath(REPO);
  rmSync(REPO, { recursive: true, force: true });
});
const CONTEXT = { jail: openRepositoryJail(REPO), workspaceId: 'ws1', projectName: 'slipway-ws1' };
/** Normalized configs as `docker-compose config` (v1, short syntax) and `docker compose config` (v2, long) print them. */
const service = (extra: Record<string, unknown>) => ({
  services: { web: { image: 'busybox:1.36', ...extra } },
});
const messages = (config: unknown) =>
  refusals.ofViolations(checkComposePolicy(config, CONTEXT)).map((v) => v.message);

describe('compose sandbox policy (normalized config)', () => {
  it('allows an ordinary project with named volumes, ports and a build inside the repository', () => {
    const config = {
      services: {
        web: {
          build: { context: `${REPO}/web` },
          ports: [{ target: 80, published: 8080 }],
          volumes: ['data:/data:rw'],
        },
        db: { image: 'postgres', volumes: [{ type: 'volume', source: 'pg', target: '/var/lib/postgresql' }] },
        cache: { image: 'redis', tmpfs: ['/tmp'], security_opt: ['no-new-privileges:true'], ipc: 'private' },
      },
      volumes: { data: {}, pg: { driver: 'local' } },
      networks: { default: {}, backend: { driver: 'bridge' } },
    };
    expect(messages(config)).toEqual([]);
  });

  it.each([
    [{ privileged: true }, "Service 'web' uses privileged: true, which is not allowed"],
    [{ network_mode: 'host' }, "Service 'web' uses network_mode: host, which is not allowed"],
    [
      { network_mode: 'service:db' },
      "Service 'web' uses network_mode: service:db (only services of this project), which is not allowed",
    ],
    [
      { pid: 'service:db' },
      "Service 'web' uses pid: service:db (only services of this project), which is not allowed",
    ],
    [{ ipc: 'container:abc' }, "Service 'web' uses ipc: container:abc, which is not allowed"],
    [
      { network_mode: 'container:abc' },
      "Service 'web' uses network_mode: container:abc, which is not allowed",
    ],
    [{ network_mode: 'bridge' }, "Service 'web' uses network_mode: bridge, which is not allowed"],
    [{ pid: 'host' }, "Service 'web' uses pid: host, which is not allowed"],
    [{ ipc: 'host' }, "Service 'web' uses ipc: host, which is not allowed"],
    [{ userns_mode: 'host' }, "Service 'web' uses userns_mode: host, which is not allowed"],
    [{ cap_add: ['SYS_ADMIN'] }, 'Service \'web\' uses cap_add: ["SYS_ADMIN"], which is not allowed'],
    [
      { security_opt: ['seccomp:unconfined'] },
      "Service 'web' uses security_opt: seccomp:unconfined, which is not allowed",
    ],
    [
      { security_opt: ['apparmor=unconfined'] },
      "Service 'web' uses security_opt: apparmor=unconfined, which is not allowed",
    ],
    [
      { devices: ['/dev/kmsg:/dev/kmsg'] },
      'Service \'web\' uses devices: ["/dev/kmsg:/dev/kmsg"], which is not allowed',
    ],
    [{ sysctls: { 'net.core.somaxconn': 1024 } }, 'sysctls'],
    [{ cgroup_parent: 'system.slice' }, 'cgroup_parent'],
    [{ volumes_from: ['container:other-tenant'] }, 'volumes_from'],
    [
      { volumes: ['/var/run/docker.sock:/var/run/docker.sock:rw'] },
      'volumes: /var/run/docker.sock, which points outside the repository',
    ],
    [{ volumes: ['/:/host:ro'] }, 'volumes: /, which points outside the repository'],
    [{ volumes: ['~/data:/data:rw'] }, 'a bind mount of ~/data, which is not allowed'],
    [
      { volumes: [{ type: 'bind', source: '/etc', target: '/etc', read_only: true }] },
      'volumes: /etc, which points outside the repository',
    ],
    [
      { build: { context: REPO, privileged: true } },
      "Service 'web' uses build.privileged: true, which is not allowed",
    ],
    [{ build: { context: REPO, entitlements: ['security.insecure'] } }, 'build.entitlements'],
    [{ build: { context: REPO, network: 'host' } }, 'build.network: host'],
    [{ build: { context: '/etc' } }, 'build.context: /etc, which points outside the repository'],
    [{ build: { context: `${REPO}/../other` } }, 'outside the repository'],
    [{ build: { context: REPO, dockerfile: '../../etc/Dockerfile' } }, 'build.dockerfile'],
    [{ build: { context: 'https://github.com/x/y.git' } }, 'build.context'],
    [{ logging: { driver: 'syslog' } }, 'logging.driver: syslog'],
    [{ image: 'slipway-0b9c-web:d1' }, 'image: slipway-0b9c-web:d1 (images of other workspaces)'],
  ])('refuses %j', (extra, expected) => {
    const found = messages(service(extra));
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toContain(expected);
  });

  it('refuses external networks and volumes, and named volumes that are host binds in disguise', () => {
    const found = messages({
      ...service({}),
      networks: { shared: { external: true, name: 'other-tenant_default' }, hostnet: { driver: 'host' } },
      volumes: {
        sneaky: { driver: 'local', driver_opts: { type: 'none', o: 'bind', device: '/etc' } },
        theirs: { external: true },
      },
      secrets: { key: { file: '/root/.ssh/id_rsa' } },
    }).join('\n');
    expect(found).toContain('networks.shared.external');
    expect(found).toContain('networks.hostnet.driver: host');
    expect(found).toContain('volumes.sneaky.driver_opts');
    expect(found).toContain('volumes.theirs.external');
    expect(found).toContain('secrets.key.file: /root/.ssh/id_rsa, which points outside the repository');
  });

  it('reports a project with no services', () => {
    expect(messages({ services: {} })).toEqual(['The compose file has no services']);
  });
});

describe('the compose file Slipway runs', () => {
  const normalized = {
    version: '3.9',
    services: {
      web: {
        build: { context: REPO },
        image: 'nginx:latest',
        container_name: 'squatted',
        ports: [{ target: 80, published: 80 }],
        mem_limit: '64g',
        cpus: 16,
        deploy: { resources: { limits: { memory: '64g' } }, replicas: 1 },
        environment: { FROM_FILE: 'kept', OVERRIDDEN: 'old' },
      },
      worker: { image: 'busybox:1.36', environment: ['LIST=x'] },
    },
  };

  it('escapes $ so Compose does not interpolate variable values', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
    expect(escapeCompose('${HOME} $(id) $$')).toBe('$${HOME} $$(id) $$$$');
  });

  it('sets our image names, labels, limits, loopback ports and the variables; drops what would collide', () => {
    const final = finalizeConfig(normalized, {
      workspaceId: 'ws1',
      userId: 'u1',
      deploymentId: 'd1',
      imageNames: { web: 'slipway-ws1-web:d1' },
      publishAddress: '127.0.0.1',
      ports: { web: [80] },
      env: [
        { key: 'OVERRIDDEN', value: 'new\n"$x"' },
        { key: 'EXTRA', value: 'e' },
      ],
      limits: { cpusPerService: 1, memoryBytesPerService: 512 * 1024 * 1024 },
    });
    const text = stringifyCompose(final);
    const parsed = YAML.parse(text) as { services: Record<string, Record<string, unknown>> };
    const web = parsed.services.web!;
    expect(parsed).not.toHaveProperty('version');
    expect(web.image).toBe('slipway-ws1-web:d1');
    expect(web).not.toHaveProperty('container_name');
    expect(web.ports).toEqual(['127.0.0.1::80/tcp']);
    expect(web.mem_limit).toBe(512 * 1024 * 1024);
    expect(web.cpus).toBe(1);
    expect(web.deploy).toEqual({ replicas: 1 });
    expect(web.labels).toMatchObject({
      'dev.slipway.workspace-id': 'ws1',
      'dev.slipway.deployment-id': 'd1',
    });
    // The image's name says whose it is: its build gets no label (a step of its own in the classic builder).
    expect(JSON.stringify(web.build)).not.toContain('dev.slipway');
    expect(web.environment).toEqual({ FROM_FILE: 'kept', OVERRIDDEN: 'new\n"$$x"', EXTRA: 'e' });
    expect(parsed.services.worker!.environment).toEqual({ LIST: 'x', OVERRIDDEN: 'new\n"$$x"', EXTRA: 'e' });
    expect(parsed.services.worker).not.toHaveProperty('ports');
    // A published image's service is the same from one deployment to the next, so Compose leaves it running.
    expect(parsed.services.worker!.labels).not.toHaveProperty('dev.slipway.deployment-id');
  });

  it("keeps the user's restart policy; only long-running services without one get unless-stopped", () => {
    const final = finalizeConfig(
      {
        services: {
          web: { image: 'x', depends_on: { migrate: { condition: 'service_completed_successfully' } } },
          migrate: { image: 'x' },
          seed: { image: 'x', restart: 'no' },
          cron: { image: 'x', restart: 'on-failure:3' },
          api: { image: 'x', restart: 'always' },
        },
      },
      {
        workspaceId: 'ws1',
        userId: 'u1',
        deploymentId: 'd1',
        imageNames: {},
        publishAddress: '127.0.0.1',
        limits: { cpusPerService: 1, memoryBytesPerService: 512 * 1024 * 1024 },
      },
    ) as { services: Record<string, { restart?: string }> };
    const restart = Object.fromEntries(Object.entries(final.services).map(([n, s]) => [n, s.restart]));
    expect(restart).toEqual({
      web: 'unless-stopped',
      migrate: undefined,
      seed: 'no',
      cron: 'on-failure:3',
      api: 'always',
    });
  });

  it('lists services with the TCP ports they publish or expose', () => {
    const services = listServices({
      services: {
        a: {
          image: 'x',
          ports: ['8080:80/tcp', '127.0.0.1:53:53/udp', { target: 443, published: '8443' }],
          expose: ['9000'],
        },
        b: { build: { context: '.' } },
      },
    });
    expect(services).toEqual([
      { name: 'a', inactive: false, hasBuild: false, image: 'x', declaredPorts: [80, 443, 9000] },
      { name: 'b', inactive: false, hasBuild: true, image: undefined, declaredPorts: [] },
    ]);
  });
});
