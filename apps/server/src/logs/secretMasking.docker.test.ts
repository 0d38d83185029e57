import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { alerts, logChunks, workspaces } from '../infra/db/schema.js';
import { cleanUpWorkspaces, containersOf, deployAndWait, docker } from '../test/deployments.js';
import { git } from '../test/fixtures/fixtureRepos.js';
import { waitUntil } from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { startTelegramStandin } from '../test/standins/telegram.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { linesOf } from './logChunks.js';
import { MASKED } from './secretMasking.js';

const BOT_TOKEN = '333333:maskingBotTokenCCCCCCCCCCCCCCC';
/** Unique per run, so the build cannot come from Docker's cache and no other test prints it. */
const SECRET = `tok-${randomBytes(8).toString('hex')}`;
const REPO = 'leaky';

/**
 * A repository that leaks its secret everywhere it can: the value is committed in the Dockerfile (build
 * output), the service prints it at start and again as it crashes (service logs, alert, email, Telegram).
 */
function createLeakyRepo(root: string) {
  const dir = path.join(root, 'operator', REPO);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'Dockerfile'),
    [
      'FROM busybox:1.36',
      `RUN echo "build step sees ${SECRET}"`,
      'COPY app.sh /app.sh',
      'CMD ["sh", "/app.sh"]',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'app.sh'),
    [
      // Restarted once after the crash (on-failure:1), it falls over again at once and stays down.
      'if [ -f /tmp/crashed ]; then echo "fatal: still no upstream, token $API_TOKEN" >&2; exit 3; fi',
      'mkdir -p /tmp /www && echo ok > /www/index.html',
      'echo "starting with API_TOKEN=$API_TOKEN"',
      'httpd -f -p 8080 -h /www &',
      'echo $! > /tmp/httpd.pid',
      'wait $!',
      'touch /tmp/crashed',
      'echo "fatal: lost the upstream, token $API_TOKEN" >&2',
      'exit 3',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'docker-compose.yml'),
    [
      'services:',
      '  web:',
      '    build: .',
      '    restart: on-failure:1',
      '    ports:',
      '      - "8080"',
      '',
    ].join('\n'),
  );
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'leaky app']);
}

describeWith('docker')('secret values never leave Slipway in clear', () => {
  let root: string;
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let telegram: Awaited<ReturnType<typeof startTelegramStandin>>;
  let client: TestClient;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'slipway-leaky-'));
    createLeakyRepo(root);
    smtp = await startLoopbackSmtp();
    telegram = await startTelegramStandin({ tokens: [BOT_TOKEN] });
    ctx = await createTestContext({
      env: {
        LOCAL_REPOS_DIR: root,
        SMTP_URL: smtp.url,
        TELEGRAM_API_URL: telegram.url,
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        HEALTH_CHECK_INTERVAL_MS: '1000',
        DEPLOY_HEALTH_TIMEOUT_SECONDS: '30',
      },
    });
    await ctx.platform.runs.startWorkers();
    client = await new TestClient(ctx.app).signIn('operator');
  });

  afterAll(async () => {
    if (ctx) await cleanUpWorkspaces(ctx);
    await ctx?.close();
    await smtp?.close();
    await telegram?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('masks a workspace variable in build logs, stored and streamed service logs, alerts, email and Telegram', async () => {
    const upload = await client.post(`/api/env-variables/${REPO}/upload`, {
      variables: [
        { key: 'API_TOKEN', value: SECRET },
        { key: 'SHORT', value: 'abc' },
      ],
    });
    expect(upload.statusCode).toBe(200);
    const { status } = await deployAndWait(client, { repo: REPO });
    expect(status.error).toBeNull();
    expect(status.state).toBe('completed');
    const configured = await client.put(`/api/alerts/config/${REPO}`, {
      global_enabled: true,
      rules: [],
      sinks: [
        { sink_type: 'email', enabled: true, config: { to_email: 'ops@example.com' } },
        { sink_type: 'telegram', enabled: true, config: { chat_id: '77' } },
      ],
    });
    expect(configured.statusCode).toBe(200);
    await ctx.platform.runningApps.start();

    // Build log: the line is there, the value is not.
    const buildLog = (
      await client.get(`/api/logs/operator/${REPO}/stream?log_type=build&follow=false&initial_lines=1000`)
    ).body;
    expect(buildLog).toContain(`build step sees ${MASKED}`);

    // The service's start line, stored and served masked.
    const started = await waitUntil(
      async () => {
        const body = (await client.get(`/api/workspace-logs/${REPO}?limit=100`)).body;
        return body.includes('starting with API_TOKEN=') ? body : undefined;
      },
      60_000,
      'the start line in the workspace logs',
    );
    expect(started).toContain(`starting with API_TOKEN=${MASKED}`);

    // The crash: the service prints the value on its way down.
    const [container] = await containersOf(
      (await ctx.platform.db.select().from(workspaces)).find((row) => row.name === REPO)!.id,
    );
    const exec = await docker
      .getContainer(container!.Id)
      .exec({ Cmd: ['sh', '-c', 'kill $(cat /tmp/httpd.pid)'], AttachStdout: true, AttachStderr: true });
    await exec.start({ hijack: true, stdin: false });
    // Down for good: crashed, restarted once, crashed again.
    await waitUntil(
      async () => {
        const info = await docker.getContainer(container!.Id).inspect();
        return info.State.Status === 'exited' && info.RestartCount === 1;
      },
      60_000,
      'the container to stay down',
    );

    const mail = await smtp.waitFor(
      (m) => m.to.includes('ops@example.com') && m.subject.includes('crashed'),
      60_000,
    );
    expect(mail.text).toContain(`fatal: lost the upstream, token ${MASKED}`);
    await waitUntil(() => telegram.sent.length > 0, 20_000, 'a Telegram alert');
    expect(telegram.sent[0]!.text).toContain(`token ${MASKED}`);

    // The first crash's alert resolves when Docker starts the container again; the second crash raises the
    // one that stays (its die event may still be on its way when the messages of the first have arrived).
    const active = await waitUntil(
      async () => {
        const open = (await client.get(`/api/alerts-active/${REPO}`)).json();
        return open.length > 0 ? open : undefined;
      },
      30_000,
      'an active alert for the container that stays down',
    );

    // Everything Slipway shows or sends, read back: the value appears nowhere.
    const shown = [
      buildLog,
      (await client.get(`/api/workspace-logs/${REPO}?limit=1000`)).body,
      (await client.get(`/api/workspace-logs-stream/${REPO}?follow=false&initial_lines=1000`)).body,
      (await client.get(`/api/logs/operator/${REPO}/stream?log_type=service&follow=false&initial_lines=1000`))
        .body,
      (await client.get(`/api/workspace-details/${REPO}`)).body,
      JSON.stringify(active),
      // Every stored log line (service and build), decoded from its chunk.
      (await ctx.platform.db.select().from(logChunks))
        .flatMap(linesOf)
        .map((stored) => stored.line)
        .join('\n'),
      JSON.stringify(await ctx.platform.db.select().from(alerts)),
      ...smtp.messages.map((message) => message.raw),
      ...telegram.sent.map((message) => message.text),
    ];
    expect(shown.join('\n')).toContain('fatal: lost the upstream');
    for (const text of shown) expect(text).not.toContain(SECRET);
    // Values under 6 characters are not masked: `abc` would blank out ordinary words.
    expect(shown.join('\n')).not.toContain(`${MASKED}${MASKED}`);
  }, 300_000);
});
