import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CadvisorContainerInfo } from '@slipway/contract';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin } from '../../test/adminClient.js';
import { describeWith } from '../../test/services.js';
import type { TestClient } from '../../test/testClient.js';
import { createTestContext, type TestContext } from '../../test/testPlatform.js';

const MACHINE = '/api/admin/cadvisor/api/v1.3/machine';
const CONTAINERS = '/api/admin/cadvisor/api/v1.3/containers';

describeWith('docker')('admin monitoring from the Docker Engine', () => {
  let ctx: TestContext;
  let admin: TestClient;
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  const label = `admin-monitor-${randomBytes(4).toString('hex')}`;
  let container: Docker.Container;

  beforeAll(async () => {
    ctx = await createTestContext({ database: 'pglite' });
    admin = await signInAdmin(ctx);
    container = await docker.createContainer({
      Image: 'busybox:1.36',
      Cmd: ['sleep', '60'],
      name: label,
      Labels: { 'dev.slipway.test': label },
      HostConfig: { Memory: 64 * 1024 * 1024 },
    });
    await container.start();
  });
  afterAll(async () => {
    await container?.remove({ force: true }).catch(() => {});
    await ctx.close();
  });

  it('describes the machine in cAdvisor v1.3 MachineInfo shape', async () => {
    const response = await admin.get(MACHINE);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const info = response.json();
    const dockerInfo = await docker.info();
    expect(info.num_cores).toBe(dockerInfo.NCPU);
    expect(info.memory_capacity).toBe(dockerInfo.MemTotal);
    expect(info.hostname).toBe(dockerInfo.Name);
    expect(info.system_uuid).toEqual(expect.any(String));
    expect(info.machine_id).toEqual(expect.any(String));
    expect(info.boot_time).toBeLessThan(Date.now() / 1000);
    expect(info.boot_time).toBeGreaterThan(Date.now() / 1000 - 10 * 365 * 86400);
  });

  it('lists the running container with its memory, CPU and network, and two samples for the CPU rate', async () => {
    const first = (await admin.get(CONTAINERS)).json() as CadvisorContainerInfo;
    expect(first.name).toBe('/');
    const find = (root: CadvisorContainerInfo) =>
      root.subcontainers?.find((c) => 'aliases' in c && c.aliases?.includes(label)) as CadvisorContainerInfo;
    const mine = find(first);
    expect(mine).toBeDefined();
    expect(mine.name).toBe(`/docker/${container.id}`);
    expect(mine.namespace).toBe('docker');
    expect(mine.spec.image).toBe('busybox:1.36');
    expect(mine.spec.labels?.['dev.slipway.test']).toBe(label);
    expect(mine.spec.memory?.limit).toBe(64 * 1024 * 1024);
    const sample = mine.stats.at(-1)!;
    expect(sample.memory.usage).toBeGreaterThan(0);
    expect(sample.memory.working_set).toBeGreaterThanOrEqual(0);
    expect(sample.memory.working_set).toBeLessThanOrEqual(sample.memory.usage);
    expect(sample.cpu.usage.total).toBeGreaterThan(0);
    expect(sample.network?.interfaces.map((i) => i.name)).toContain('eth0');
    expect(Date.parse(sample.timestamp)).toBeGreaterThan(Date.now() - 60_000);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = find((await admin.get(CONTAINERS)).json());
    expect(second.stats).toHaveLength(2);
    const [before, after] = second.stats as [typeof sample, typeof sample];
    expect(Date.parse(after.timestamp)).toBeGreaterThan(Date.parse(before.timestamp));
    expect(after.cpu.usage.total).toBeGreaterThanOrEqual(before.cpu.usage.total);
  });

  it('drops a removed container', async () => {
    const doomed = await docker.createContainer({
      Image: 'busybox:1.36',
      Cmd: ['sleep', '60'],
      Labels: { 'dev.slipway.test': label },
    });
    await doomed.start();
    const ids = async () =>
      ((await admin.get(CONTAINERS)).json() as CadvisorContainerInfo).subcontainers!.map(
        (c) => (c as { id?: string }).id,
      );
    expect(await ids()).toContain(doomed.id);
    await doomed.remove({ force: true });
    expect(await ids()).not.toContain(doomed.id);
  });
});

describe('admin monitoring through a real cAdvisor', () => {
  let server: Server;
  let ctx: TestContext;
  let admin: TestClient;
  let answerHtml = false;

  const cadvisorContainer = {
    name: '/docker/abc123',
    aliases: ['web', 'abc123'],
    namespace: 'docker',
    spec: { image: 'nginx', memory: { limit: 18446744073709552000 } },
    stats: [
      {
        timestamp: '2024-01-01T00:00:00Z',
        cpu: { usage: { total: 5 } },
        memory: { usage: 10, working_set: 9 },
      },
    ],
  };

  beforeAll(async () => {
    // Answers as cAdvisor's v1.3 REST API does (github.com/google/cadvisor/blob/master/docs/api.md).
    server = createServer((request, response) => {
      if (answerHtml) {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
        return;
      }
      const json = (body: unknown) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.url === '/api/v1.3/machine') {
        return json({
          num_cores: 8,
          memory_capacity: 33554432000,
          system_uuid: 'uuid-1',
          boot_id: 'b',
          machine_id: 'm',
          cpu_frequency_khz: 2000000,
        });
      }
      if (request.url === '/api/v1.3/containers/') {
        return json({
          name: '/',
          subcontainers: [{ name: '/docker' }, { name: '/system.slice' }],
          spec: {},
          stats: [],
        });
      }
      if (request.url === '/api/v1.3/docker/') return json({ '/docker/abc123': cadvisorContainer });
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ctx = await createTestContext({ database: 'pglite', env: { CADVISOR_URL: `http://127.0.0.1:${port}/` } });
    admin = await signInAdmin(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('passes cAdvisor machine info through and fills the root with the docker containers', async () => {
    expect((await admin.get(MACHINE)).json()).toMatchObject({ num_cores: 8, system_uuid: 'uuid-1' });
    const root = (await admin.get(CONTAINERS)).json();
    expect(root.name).toBe('/');
    // Passed through as cAdvisor sent it, plus whose container it is (nobody's: Slipway did not start it).
    expect(root.subcontainers).toEqual([
      { ...cadvisorContainer, slipway: { workspace: null, service: null, owner: null } },
    ]);
  });

  it('turns an HTML answer into a JSON error', async () => {
    answerHtml = true;
    try {
      const response = await admin.get(CONTAINERS);
      expect(response.statusCode).toBe(502);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json().error).toBe('cAdvisor answered text/html, not JSON');
    } finally {
      answerHtml = false;
    }
  });
});
