import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { composeProjectName, LABELS } from '../infra/docker/conventions.js';
import { freePort } from '../test/fixtures/freePort.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  TEST_IMAGE,
  testDocker,
  waitUntil,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const docker = testDocker();
/** First run: prints, then dies with exit 3. Restarted by the engine: serves HTTP on 8080. */
const CRASH_ONCE_THEN_SERVE = [
  'if [ ! -f /crashed ]; then',
  '  touch /crashed; echo "booting api"; echo "loading config";',
  '  echo "panic: runtime error: index out of range" >&2; exit 3;',
  'fi;',
  'echo "second boot"; mkdir -p /www; echo ok > /www/index.html; exec httpd -f -p 8080 -h /www',
].join(' ');
/**
 * Fills memory until the 16 MB limit kills it, once told to (a file appears). Told only once started: a
 * process killed in its first milliseconds dies before the engine watches its memory, and the engine never
 * learns it was an OOM kill (see LATE_OOM_MS). A real service gets that far.
 */
const EAT_MEMORY = 'echo "allocating the cache"; until [ -e /eat ]; do sleep 0.05; done; exec tail /dev/zero';

/** A container labelled as one service of the workspace, created but not started. */
async function createService(
  workspace: WorkspaceRow,
  service: string,
  script: string,
  host: Docker.HostConfig,
): Promise<Docker.Container> {
  return docker.createContainer({
    name: `${composeProjectName(workspace.id)}-${service}-${randomBytes(2).toString('hex')}`,
    Image: TEST_IMAGE,
    Cmd: ['sh', '-c', script],
    ExposedPorts: { '8080/tcp': {} },
    Labels: {
      [LABELS.workspaceId]: workspace.id,
      [LABELS.userId]: workspace.userId,
      [LABELS.composeProject]: composeProjectName(workspace.id),
      [LABELS.composeService]: service,
    },
    HostConfig: host,
  });
}

describeWith('docker').each(DATABASES)('crash alerts from engine events (%s)', (database) => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let owner: { client: TestClient; userId: string };
  const created: WorkspaceRow[] = [];

  const activeAlerts = async (workspace: WorkspaceRow) =>
    (await owner.client.get(`/api/alerts-active/${workspace.name}`)).json() as Promise<
      { alert_type: string; description: string; title: string }[]
    >;

  async function watchedWorkspace(): Promise<WorkspaceRow> {
    const workspace = await insertWorkspace(ctx.platform, { userId: owner.userId });
    created.push(workspace);
    const saved = await owner.client.put(`/api/alerts/config/${workspace.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [{ sink_type: 'email', enabled: true, config: { to_email: `${workspace.name}@example.com` } }],
    });
    expect(saved.statusCode).toBe(200);
    return workspace;
  }

  /** A watched workspace whose web service answers HTTP on a published port, at the URL `urlOf` gives. */
  async function servingWorkspace(
    urlOf: (name: string, port: string | undefined) => string,
    script = 'echo "listening"; exec httpd -f -p 8080 -h /',
    host: Docker.HostConfig = {},
  ) {
    const workspace = await watchedWorkspace();
    const container = await createService(workspace, 'web', script, {
      PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
      ...host,
    });
    await container.start();
    const port = (await container.inspect()).NetworkSettings.Ports['8080/tcp']?.[0]?.HostPort;
    await ctx.platform.db
      .update(workspaces)
      .set({ serviceUrls: { web: urlOf(workspace.name, port) } })
      .where(eq(workspaces.id, workspace.id));
    return { workspace, container };
  }

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({
      database,
      // The poll is slower than every wait below: what these tests see comes from the engine's events.
      env: { SMTP_URL: smtp.url, HEALTH_CHECK_INTERVAL_MS: '600000' },
    });
    owner = await signInNewUser(ctx);
    await ctx.platform.runningApps.start();
    // A workspace on the engine makes the monitor follow it from the engine refresh, not the (slow) poll.
    expect(ctx.platform.runningApps.healthMonitor.watchedEngines).toBe(0);
    await watchedWorkspace();
    await ctx.platform.runningApps.healthMonitor.refreshEngines();
    await waitUntil(
      () => ctx.platform.runningApps.healthMonitor.watchedEngines > 0,
      10_000,
      'the event stream',
    );
  });

  afterAll(async () => {
    for (const workspace of created) await removeWorkspaceContainers(docker, workspace.id);
    await ctx?.close();
    await smtp?.close();
  });

  it('raises "crashed" within seconds with the exit code and the last lines, and resolves once it answers', async () => {
    const workspace = await watchedWorkspace();
    // Served on a `*.localhost` name (Caddy's local mode), which Node's resolver cannot resolve: the probe
    // must, or the crash would never be over.
    const port = await freePort();
    await ctx.platform.db
      .update(workspaces)
      .set({ serviceUrls: { api: `http://api-${workspace.name}.localhost:${port}/` } })
      .where(eq(workspaces.id, workspace.id));
    const container = await createService(workspace, 'api', CRASH_ONCE_THEN_SERVE, {
      RestartPolicy: { Name: 'always' },
      PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: String(port) }] },
    });
    const startedAt = Date.now();
    await container.start();

    const [alert] = await waitUntil(
      async () => {
        const active = await activeAlerts(workspace);
        return active.length > 0 ? active : undefined;
      },
      10_000,
      'a crash alert',
    );
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(alert).toMatchObject({ alert_type: 'container_crashed', title: 'Service api crashed' });
    expect(alert!.description).toContain('exit code 3');
    expect(alert!.description).not.toContain('out of memory');
    expect(alert!.description).toContain('panic: runtime error: index out of range');

    const mail = await smtp.waitFor((m) => m.to.includes(`${workspace.name}@example.com`), 10_000);
    expect(mail.subject).toContain('crashed');
    expect(mail.text).toContain('loading config');
    expect(mail.text).toContain('panic: runtime error: index out of range');
    // Only what came before the crash: the restarted container's output explains nothing.
    expect(mail.text).not.toContain('second boot');

    await waitUntil(async () => (await activeAlerts(workspace)).length === 0, 15_000, 'automatic resolution');
    const [resolved] = (await owner.client.get(`/api/alerts-recent/${workspace.name}?hours=24`)).json();
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolved_by: 'system',
      alert_type: 'container_crashed',
    });
    await smtp.waitFor(
      (m) => m.subject.startsWith('[Slipway] Resolved') && m.subject.includes(workspace.name),
    );
  });

  it('says so when the kernel killed the container for memory', async () => {
    const workspace = await watchedWorkspace();
    const container = await createService(workspace, 'worker', EAT_MEMORY, {
      Memory: 16 * 1024 * 1024,
      MemorySwap: 16 * 1024 * 1024,
    });
    await container.start();
    const told = await container.exec({ Cmd: ['touch', '/eat'] });
    await told.start({});
    const [alert] = await waitUntil(
      async () => {
        const active = await activeAlerts(workspace);
        return active.length > 0 ? active : undefined;
      },
      10_000,
      'an out-of-memory alert',
    );
    expect(alert).toMatchObject({ alert_type: 'container_crashed', title: 'Service worker crashed' });
    expect(alert!.description).toContain('exit code 137');
    expect(alert!.description).toContain('killed after running out of memory');
    const mail = await smtp.waitFor((m) => m.to.includes(`${workspace.name}@example.com`), 10_000);
    expect(mail.text).toContain('allocating the cache');
  });

  it('reports a container stopped by `docker kill` with its signal exit code, and not as unreachable', async () => {
    const { workspace, container } = await servingWorkspace(
      (name, port) => `http://web-${name}.localhost:${port}/`,
    );
    // Healthy and answering through its `*.localhost` name: no alert at all.
    await ctx.platform.runningApps.healthMonitor.checkAll();
    expect(await activeAlerts(workspace)).toEqual([]);

    await container.kill();
    const active = await waitUntil(
      async () => {
        const found = await activeAlerts(workspace);
        return found.length > 0 ? found : undefined;
      },
      10_000,
      'a crash alert',
    );
    await ctx.platform.runningApps.healthMonitor.checkAll();
    const after = await activeAlerts(workspace);
    expect(after.map((alert) => alert.alert_type)).toEqual(['container_crashed']);
    expect(active[0]!.description).toContain('exit code 137');
  });

  it('reports a main process killed from inside (no `kill` event, restart policy on) once, within 5 s', async () => {
    // The shell stays PID 1 and httpd is its child: a `kill -9` of httpd from inside ends the shell with 137, as an
    // OOM kill whose `oom` event the engine missed would; the engine restarts the container at once (on the same
    // host port, so that it answers at its URL again).
    const { workspace, container } = await servingWorkspace(
      (_name, port) => `http://127.0.0.1:${port}/`,
      'echo "listening"; httpd -f -p 8080 -h /; exit $?',
      {
        RestartPolicy: { Name: 'always' },
        PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: String(await freePort()) }] },
      },
    );
    await ctx.platform.runningApps.healthMonitor.check(workspace);
    expect(await activeAlerts(workspace)).toEqual([]);
    const address = `${workspace.name}@example.com`;
    const crashMail = (m: { to: string[]; subject: string }) =>
      m.to.includes(address) && m.subject.startsWith('[Slipway] CRITICAL: Service web crashed');

    const killed = await container.exec({ Cmd: ['sh', '-c', 'kill -9 $(pidof httpd)'] });
    const startedAt = Date.now();
    await killed.start({});
    await smtp.waitFor(crashMail, 5_000);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const [alert] = (await owner.client.get(`/api/alerts-recent/${workspace.name}?hours=1`)).json();
    expect(alert.description).toContain('exit code 137');
    expect(alert.description).not.toContain('out of memory');
    // Over once it answers again; one crash, one alert.
    await smtp.waitFor((m) => m.to.includes(address) && m.subject.startsWith('[Slipway] Resolved'), 15_000);
    expect((await container.inspect()).RestartCount).toBe(1);
    expect(smtp.messages.filter(crashMail)).toHaveLength(1);
    expect((await owner.client.get(`/api/alerts-recent/${workspace.name}?hours=1`)).json()).toHaveLength(1);
  });

  it('reads a quiet fleet in batches on its safety poll: one container list per engine, no workspace read alone', async () => {
    const eventReads = vi.spyOn(ctx.platform.runningApps.workspacesRepo, 'findById');
    const quiet: WorkspaceRow[] = [];
    for (let i = 0; i < 3; i++) {
      quiet.push((await servingWorkspace((_name, port) => `http://127.0.0.1:${port}/`)).workspace);
    }
    const monitor = ctx.platform.runningApps.healthMonitor;
    // Each container's `start` event makes a check of its workspace alone, 300 ms later: wait until each has
    // fired (it reads its workspace) and ended (a check asked for now runs after it), so none falls in the pass
    // measured below.
    await waitUntil(
      () => quiet.every((workspace) => eventReads.mock.calls.some(([id]) => id === workspace.id)),
      10_000,
      'the start events’ checks',
    );
    eventReads.mockRestore();
    for (const workspace of quiet) await monitor.check(workspace);
    // The first pass settles every workspace the earlier tests left (a missing container, a crash still open).
    await monitor.checkAll();
    const lists = vi.spyOn(Docker.prototype, 'listContainers');
    const reads = vi.spyOn(ctx.platform.runningApps.workspacesRepo, 'findById');
    try {
      await monitor.checkAll();
      const filters = lists.mock.calls.map(([options]) => JSON.stringify(options?.filters ?? {}));
      // The log collector's resync lists the same way (every 30 s) and may fall in the pass: at least one.
      expect(
        filters.filter((f) => f === JSON.stringify({ label: [LABELS.workspaceId] })).length,
      ).toBeGreaterThanOrEqual(1);
      expect(filters.filter((f) => quiet.some((workspace) => f.includes(workspace.id)))).toEqual([]);
      // The earlier tests' crashed workspaces are re-read every second by the recovery checks: only the quiet
      // ones matter here.
      expect(reads.mock.calls.filter(([id]) => quiet.some((workspace) => workspace.id === id))).toEqual([]);
      for (const workspace of quiet) expect(await activeAlerts(workspace)).toEqual([]);
    } finally {
      lists.mockRestore();
      reads.mockRestore();
    }

    // A change found by the batch is read again alone and acted on: a stopped service is reported.
    const [first] = await testDocker().listContainers({
      filters: { label: [`${LABELS.workspaceId}=${quiet[0]!.id}`] },
    });
    await docker.getContainer(first!.Id).kill();
    await waitUntil(async () => (await activeAlerts(quiet[0]!)).length > 0, 10_000, 'a crash alert');
    await monitor.checkAll();
    expect((await activeAlerts(quiet[0]!)).map((alert) => alert.alert_type)).toEqual(['container_crashed']);
  });
});
