import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { insertWorkspace, waitUntil } from '../test/runningWorkspaces.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { startTelegramStandin } from '../test/standins/telegram.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const BOT_TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKllMMnn';

/** Issue 31: a preview's alert says whose preview it is, and goes to the channels of the workspace it previews. */
describe('alerts of a preview workspace', () => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let telegram: Awaited<ReturnType<typeof startTelegramStandin>>;
  let preview: WorkspaceRow;

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    telegram = await startTelegramStandin({ tokens: [BOT_TOKEN] });
    ctx = await createTestContext({
      env: { SMTP_URL: smtp.url, TELEGRAM_API_URL: telegram.url, TELEGRAM_BOT_TOKEN: BOT_TOKEN },
    });
    const owner = await signInNewUser(ctx);
    const parent = await insertWorkspace(ctx.platform, { userId: owner.userId, name: 'shop', withVm: false });
    const row = await insertWorkspace(ctx.platform, {
      userId: owner.userId,
      name: 'pr-7-shop',
      withVm: false,
    });
    const [marked] = await ctx.platform.db
      .update(workspaces)
      .set({ previewOf: parent.id })
      .where(eq(workspaces.id, row.id))
      .returning();
    preview = marked!;
    // The parent's channels only: the preview has none of its own.
    const saved = await owner.client.put('/api/alerts/config/shop', {
      global_enabled: true,
      rules: [],
      sinks: [
        { sink_type: 'email', enabled: true, config: { to_email: 'ops@example.com' } },
        { sink_type: 'telegram', enabled: true, config: { chat_id: '4242' } },
      ],
    });
    expect(saved.statusCode).toBe(200);
  });

  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
    await telegram?.close();
  });

  it('is marked as the preview of pull request #7 of shop in its title, its mail and its Telegram message', async () => {
    const mark = 'Preview of pull request #7 of shop';
    const row = await ctx.platform.runningApps.alerts.raise(
      preview,
      {
        fingerprint: 'crash:api',
        title: 'Service api crashed (exit code 3)',
        description: 'The container exited with code 3',
        alertType: 'container_crash',
        severity: 'critical',
        service: 'api',
      },
      { lastLines: [{ ts: new Date(), line: 'panic: index out of range' }] },
    );
    expect(row?.title).toBe(`${mark}: Service api crashed (exit code 3)`);
    const mail = await smtp.waitFor((m) => m.subject.includes(mark));
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.text).toContain('panic: index out of range');
    const sent = await waitUntil(() => telegram.sent.find((m) => m.text.includes(mark)), 10_000, 'telegram');
    expect(sent.chat_id).toBe('4242');

    await ctx.platform.runningApps.alerts.recover(preview, 'crash:api');
    await smtp.waitFor((m) => m.subject.startsWith('[Slipway] Resolved') && m.subject.includes(mark));
  });
});
