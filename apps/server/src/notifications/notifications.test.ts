import { SECRET_MASK } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertConfigs } from '../infra/db/schema.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { startTelegramStandin } from '../test/standins/telegram.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const PLATFORM_BOT = '111111:platformBotTokenAAAAAAAAAAAA';
const OWN_BOT = '222222:ownBotTokenBBBBBBBBBBBBBBBBBB';

describe.each(DATABASES)('notification settings (%s)', (database) => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let telegram: Awaited<ReturnType<typeof startTelegramStandin>>;
  let owner: { client: TestClient; userId: string };
  let workspace: WorkspaceRow;
  const url = () => `/api/alerts/config/${workspace.name}`;

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    telegram = await startTelegramStandin({ tokens: [PLATFORM_BOT, OWN_BOT], unreachableChats: ['999'] });
    ctx = await createTestContext({
      database,
      env: { SMTP_URL: smtp.url, TELEGRAM_API_URL: telegram.url, TELEGRAM_BOT_TOKEN: PLATFORM_BOT },
    });
    owner = await signInNewUser(ctx);
    workspace = await insertWorkspace(ctx.platform, { userId: owner.userId });
  });

  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
    await telegram?.close();
  });

  it('starts enabled with no channels and a rule per alert type', async () => {
    const config = (await owner.client.get(url())).json();
    expect(config).toMatchObject({ sinks: [], global_enabled: true });
    expect(config.rules.map((rule: { alert_type: string }) => rule.alert_type)).toContain(
      'container_crashed',
    );
  });

  it('rejects incomplete channels with the spec’s messages', async () => {
    const cases: [unknown, string][] = [
      [{ sink_type: 'email', enabled: true, config: {} }, 'Email address is required'],
      [
        { sink_type: 'email', enabled: true, config: { to_email: 'not-an-address' } },
        'Please enter a valid email address',
      ],
      [{ sink_type: 'telegram', enabled: true, config: {} }, 'At least one chat ID is required'],
      [
        { sink_type: 'telegram', enabled: true, config: { chat_ids: [] } },
        'At least one chat ID is required',
      ],
    ];
    for (const [sink, message] of cases) {
      const response = await owner.client.put(url(), { sinks: [sink], rules: [], global_enabled: true });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(message);
    }
  });

  it('stores secrets encrypted, never returns them, and keeps them when the mask comes back', async () => {
    const saved = await owner.client.put(url(), {
      global_enabled: true,
      rules: [],
      sinks: [
        {
          sink_type: 'email',
          enabled: true,
          config: { to_email: 'me@example.com', smtp_password: 'hunter2-secret' },
        },
        { sink_type: 'telegram', enabled: true, config: { chat_ids: ['1', 2], bot_token: OWN_BOT } },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain('hunter2-secret');
    expect(saved.body).not.toContain(OWN_BOT);
    const config = saved.json();
    expect(config.sinks[1].config).toEqual({ chat_ids: ['1', 2], bot_token: SECRET_MASK });
    const [row] = await ctx.platform.db
      .select()
      .from(alertConfigs)
      .where(eq(alertConfigs.workspaceId, workspace.id));
    expect(JSON.stringify(row)).not.toContain(OWN_BOT);
    expect(JSON.stringify(row)).not.toContain('hunter2-secret');

    // The settings screen sends back what it got: the masked values must keep the stored ones.
    const again = await owner.client.put(url(), { ...config, global_enabled: false });
    expect(again.json().global_enabled).toBe(false);
    const opened = await ctx.platform.runningApps.alertConfigs.forSending(workspace.id);
    expect(opened.sinks[1]!.config.bot_token).toBe(OWN_BOT);
    expect(opened.sinks[0]!.config.smtp_password).toBe('hunter2-secret');
    expect((await owner.client.get(url())).body).not.toContain(OWN_BOT);
  });

  it('sends test messages by email and Telegram, with the stored bot token behind the mask', async () => {
    const email = await owner.client.post(`/api/alerts/test/${workspace.name}/email`, {
      config: { to_email: 'me@example.com' },
    });
    expect(email.statusCode).toBe(200);
    expect(email.json().message).toContain('me@example.com');
    const mail = await smtp.waitFor((m) => m.to.includes('me@example.com'));
    expect(mail.text).toContain(workspace.name);

    const sent = await owner.client.post(`/api/alerts/test/${workspace.name}/telegram`, {
      config: { chat_ids: ['1', 2], bot_token: SECRET_MASK },
    });
    expect(sent.statusCode).toBe(200);
    expect(telegram.sent.map((m) => [m.token, m.chat_id])).toEqual([
      [OWN_BOT, '1'],
      [OWN_BOT, 2],
    ]);

    const platformBot = await owner.client.post(`/api/alerts/test/${workspace.name}/telegram`, {
      config: { chat_id: '7' },
    });
    expect(platformBot.statusCode).toBe(200);
    expect(telegram.sent.at(-1)).toMatchObject({ token: PLATFORM_BOT, chat_id: '7' });

    const failing = await owner.client.post(`/api/alerts/test/${workspace.name}/telegram`, {
      config: { chat_id: '999' },
    });
    expect(failing.statusCode).toBe(502);
    expect(failing.json().detail).toContain('chat not found');
    expect(failing.body).not.toContain(PLATFORM_BOT);

    const invalid = await owner.client.post(`/api/alerts/test/${workspace.name}/telegram`, { config: {} });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error).toBe('At least one chat ID is required');
    expect(
      (await owner.client.post(`/api/alerts/test/${workspace.name}/sms`, { config: {} })).statusCode,
    ).toBe(400);
  });

  it('answers 404 for another user’s workspace', async () => {
    const stranger = await signInNewUser(ctx);
    expect((await stranger.client.get(url())).statusCode).toBe(404);
    expect(
      (await stranger.client.put(url(), { sinks: [], rules: [], global_enabled: true })).statusCode,
    ).toBe(404);
    const test = await stranger.client.post(`/api/alerts/test/${workspace.name}/email`, {
      config: { to_email: 'x@example.com' },
    });
    expect(test.statusCode).toBe(404);
    expect(test.json().error).toBe('Workspace not found');
  });
});
