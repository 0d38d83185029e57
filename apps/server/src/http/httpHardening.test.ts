import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../platform/app.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import { MAX_JSON_DEPTH } from './jsonBody.js';
import { RATE_LIMITS } from './rateLimit.js';
import { frameSourcesFor, registerSecurityHeaders } from './securityHeaders.js';

const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const stateBody = (depth: number) => `{"sessionId":"deep-session-1","stateData":{"a":${nested(depth - 2)}}}`;

describe.each(DATABASES)('HTTP hardening (%s)', (database) => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({ database, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('answers deeply nested JSON on /api/session/state with 400, and the database keeps working', async () => {
    const client = await new TestClient(ctx.app).signIn('operator');
    const json = { 'content-type': 'application/json' };
    // At the limit: stored and read back.
    const fits = await client.request('POST', '/api/session/state', stateBody(MAX_JSON_DEPTH), json);
    expect(fits.statusCode).toBe(200);
    for (const depth of [MAX_JSON_DEPTH + 1, 1000, 100_000]) {
      const deep = await client.request('POST', '/api/session/state', stateBody(depth), json);
      expect(deep.statusCode, `depth ${depth}`).toBe(400);
      expect(deep.json().error).toBe(
        `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
      );
    }
    // Brackets inside strings are text, not nesting.
    const text = await client.post('/api/session/state', {
      sessionId: 'deep-session-2',
      stateData: { note: '['.repeat(5000) },
    });
    expect(text.statusCode).toBe(200);
    // The embedded database crashed for good on a 1000-level jsonb; it still answers.
    const back = await client.get('/api/session/state/deep-session-1');
    expect(back.statusCode).toBe(200);
    expect(back.json().exists).toBe(true);
  });

  it('puts security headers on API answers and on the web app', async () => {
    const webDist = path.join(ctx.dataDir, 'web');
    mkdirSync(webDist, { recursive: true });
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = await buildApp(ctx.platform, { webDist });
    try {
      for (const url of ['/api/health', '/api/user', '/', '/workspaces/some-page']) {
        const response = await app.inject({ method: 'GET', url });
        const csp = String(response.headers['content-security-policy']);
        expect(csp, url).toContain("script-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("frame-src 'none'");
        expect(csp).toContain("default-src 'self'");
        expect(csp).not.toContain('upgrade-insecure-requests');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(response.headers['x-frame-options']).toBe('DENY');
        expect(response.headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });

  it('rate-limits test notifications per user with a plain 429', async () => {
    const { client, userId } = await signInNewUser(ctx);
    const workspace = await insertWorkspace(ctx.platform, { userId });
    const { limit, message } = RATE_LIMITS.testNotification;
    const send = () =>
      client.post(`/api/alerts/test/${workspace.name}/email`, { config: { to_email: 'victim@example.com' } });
    for (let attempt = 1; attempt <= limit; attempt++) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(message);
    // Telegram counts against the same budget.
    const telegram = await client.post(`/api/alerts/test/${workspace.name}/telegram`, {
      config: { chat_id: '1' },
    });
    expect(telegram.statusCode).toBe(429);
    expect(smtp.messages.filter((mail) => mail.to.includes('victim@example.com'))).toHaveLength(limit);
    // Another user has a budget of their own.
    const other = await signInNewUser(ctx);
    const theirs = await insertWorkspace(ctx.platform, { userId: other.userId });
    const allowed = await other.client.post(`/api/alerts/test/${theirs.name}/email`, {
      config: { to_email: 'me@example.com' },
    });
    expect(allowed.statusCode).toBe(200);
  });

  it('rate-limits the enterprise inquiry form per client with a plain 429', async () => {
    await ctx.platform.kv.flush('ratelimit');
    const visitor = new TestClient(ctx.app);
    await visitor.get('/api/user');
    const inquiry = {
      companyName: 'Acme',
      contactName: 'Wile E.',
      email: 'wile@acme.test',
      companySize: '51-200',
      timeline: 'short',
      useCase: 'Many apps',
      submittedAt: new Date().toISOString(),
    };
    const { limit, message } = RATE_LIMITS.enterpriseInquiry;
    for (let attempt = 1; attempt <= limit; attempt++) {
      expect((await visitor.post('/api/enterprise-contact', inquiry)).statusCode).toBe(201);
    }
    const refused = await visitor.post('/api/enterprise-contact', inquiry);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe(message);
  });
});

describe('security headers in production', () => {
  it('adds HSTS and upgrades insecure requests only in production', async () => {
    const app = Fastify();
    await registerSecurityHeaders(app, { production: true, frameSources: [] });
    app.get('/', async () => ({ ok: true }));
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(response.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    await app.close();
  });

  it('frames only the origin of the configured demo video', async () => {
    const app = Fastify();
    const frameSources = frameSourcesFor('https://video.example.test/embed/abc?autoplay=1');
    await registerSecurityHeaders(app, { production: false, frameSources });
    app.get('/', async () => ({ ok: true }));
    const policy = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(policy).toContain('frame-src https://video.example.test;');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    await app.close();
  });
});
