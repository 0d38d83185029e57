import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { alerts, workspaces } from '../infra/db/schema.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  testDocker,
  waitUntil,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { startTelegramStandin } from '../test/standins/telegram.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const docker = testDocker();
const BOT_TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKllMMnn';
/** First run: prints, then crashes with a panic. Started again (same container, same filesystem): stays up. */
const CRASH_ONCE = [
  'if [ ! -f /crashed ]; then',
  '  touch /crashed; echo "booting api"; echo "loading config"; sleep 2;',
  '  echo "panic: runtime error: index out of range" >&2; exit 3;',
  'fi;',
  'echo recovered; while true; do sleep 1; done',
].join(' ');

describeWith('docker').each(DATABASES)('health monitoring and alerts (%s)', (database) => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let telegram: Awaited<ReturnType<typeof startTelegramStandin>>;
  let owner: { client: TestClient; userId: string };
  let stranger: { client: TestClient; userId: string };
  let crashing: WorkspaceRow;
  let unreachable: WorkspaceRow;

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    telegram = await startTelegramStandin({ tokens: [BOT_TOKEN] });
    ctx = await createTestContext({
      database,
      env: {
        SMTP_URL: smtp.url,
        TELEGRAM_API_URL: telegram.url,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        HEALTH_CHECK_INTERVAL_MS: '1000',
      },
    });
    owner = await signInNewUser(ctx);
    stranger = await signInNewUser(ctx);
    crashing = await insertWorkspace(ctx.platform, { userId: owner.userId });
    unreachable = await insertWorkspace(ctx.platform, {
      userId: owner.userId,
      serviceUrls: { api: 'http://127.0.0.1:1/' },
    });
    const saved = await owner.client.put(`/api/alerts/config/${crashing.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [
        { sink_type: 'email', enabled: true, config: { to_email: 'ops@example.com' } },
        { sink_type: 'telegram', enabled: true, config: { chat_id: '4242' } },
      ],
    });
    expect(saved.statusCode).toBe(200);
    await runServiceContainer(docker, unreachable, 'api', 'while true; do sleep 1; done');
  });

  afterAll(async () => {
    await removeWorkspaceContainers(docker, crashing.id);
    await removeWorkspaceContainers(docker, unreachable.id);
    await ctx?.close();
    await smtp?.close();
    await telegram?.close();
  });

  it('raises one alert within the window when a container crashes, and mails the crash’s log lines', async () => {
    const container = await runServiceContainer(docker, crashing, 'api', CRASH_ONCE);
    await ctx.platform.runningApps.start();
    await container.wait();
    const crashedAt = Date.now();

    const [alert] = await waitUntil(
      async () => {
        const active = (await owner.client.get(`/api/alerts-active/${crashing.name}`)).json();
        return active.length > 0 ? active : undefined;
      },
      60_000,
      'an active alert',
    );
    expect(Date.now() - crashedAt).toBeLessThan(60_000);
    expect(alert).toMatchObject({
      alert_type: 'container_crashed',
      severity: 'critical',
      state: 'active',
      service: 'api',
      acknowledged_at: null,
      acknowledged_by: null,
    });
    expect(alert.title).toContain('api');
    expect(alert.description).toContain('exit code 3');

    const mail = await smtp.waitFor((m) => m.to.includes('ops@example.com') && m.subject.includes('crashed'));
    expect(mail.subject).toContain(crashing.name);
    expect(mail.text).toContain(`Workspace: ${crashing.name}`);
    expect(mail.text).toContain('Service: api');
    expect(mail.text).toContain('panic: runtime error: index out of range');
    expect(mail.text).toContain('loading config');

    await waitUntil(() => telegram.sent.length > 0, 10_000, 'a Telegram message');
    expect(telegram.sent[0]).toMatchObject({ token: BOT_TOKEN, chat_id: '4242' });
    expect(telegram.sent[0]!.text).toContain('panic: runtime error');

    // Still failing through several checks: still one alert, one email.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect((await owner.client.get(`/api/alerts-active/${crashing.name}`)).json()).toHaveLength(1);
    expect((await owner.client.get(`/api/alerts-recent/${crashing.name}?hours=24`)).json()).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.subject.includes('crashed'))).toHaveLength(1);
  });

  it('resolves the alert by itself when the container runs again', async () => {
    const [summary] = await docker.listContainers({
      all: true,
      filters: { label: [`dev.slipway.workspace-id=${crashing.id}`] },
    });
    await docker.getContainer(summary!.Id).start();
    const resolved = await waitUntil(
      async () => {
        const recent = (await owner.client.get(`/api/alerts-recent/${crashing.name}?hours=24`)).json();
        return recent[0]?.state === 'resolved' ? recent[0] : undefined;
      },
      30_000,
      'automatic resolution',
    );
    expect(resolved).toMatchObject({ resolved_by: 'system', alert_type: 'container_crashed' });
    expect((await owner.client.get(`/api/alerts-active/${crashing.name}`)).json()).toEqual([]);
    await smtp.waitFor((m) => m.subject.startsWith('[Slipway] Resolved'));
  });

  it('acknowledges and resolves by hand, scoped to the owner, and counts it in the statistics', async () => {
    const [alert] = await waitUntil(
      async () => {
        const active = (await owner.client.get(`/api/alerts-active/${unreachable.name}`)).json();
        return active.length > 0 ? active : undefined;
      },
      30_000,
      'an unreachable-service alert',
    );
    expect(alert).toMatchObject({ alert_type: 'service_unreachable', service: 'api', severity: 'error' });
    // Out of the monitor's hands from here, and triggered ten minutes ago for a measurable response time.
    await ctx.platform.db
      .update(workspaces)
      .set({ status: 'stopped' })
      .where(eq(workspaces.id, unreachable.id));
    await ctx.platform.db
      .update(alerts)
      .set({ triggeredAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(alerts.id, alert.alert_id));

    for (const call of [
      () => stranger.client.post(`/api/alert-acknowledge/${alert.alert_id}`, { acknowledged_by: 'user' }),
      () => stranger.client.post(`/api/alert-resolve/${alert.alert_id}`, { resolved_by: 'user' }),
      () => stranger.client.get(`/api/alerts-active/${unreachable.name}`),
      () => stranger.client.get(`/api/alerts-statistics/${unreachable.name}?days=7`),
    ]) {
      const response = await call();
      expect(response.statusCode).toBe(404);
    }
    expect((await stranger.client.post(`/api/alert-resolve/${alert.alert_id}`, {})).json().error).toBe(
      'Alert not found',
    );

    const acked = await owner.client.post(`/api/alert-acknowledge/${alert.alert_id}`, {
      acknowledged_by: 'user',
    });
    expect(acked.statusCode).toBe(200);
    const [stillActive] = (await owner.client.get(`/api/alerts-active/${unreachable.name}`)).json();
    expect(stillActive).toMatchObject({ acknowledged_by: 'user', acknowledged_at: expect.any(String) });

    const resolved = await owner.client.post(`/api/alert-resolve/${alert.alert_id}`, { resolved_by: 'user' });
    expect(resolved.json().alert).toMatchObject({ state: 'resolved', resolved_by: 'user' });
    expect((await owner.client.get(`/api/alerts-active/${unreachable.name}`)).json()).toEqual([]);

    const stats = (await owner.client.get(`/api/alerts-statistics/${unreachable.name}?days=7`)).json();
    expect(stats).toMatchObject({ total_alerts: 1, active_alerts: 0, resolved_alerts: 1 });
    expect(stats.avg_response_time).toBeGreaterThanOrEqual(9.9);
    expect(stats.avg_response_time).toBeLessThan(11);
  });
});
