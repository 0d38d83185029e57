import net from 'node:net';
import type { CreatedApiToken } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawAnswer, rawHttpClient } from '../test/rawHttp.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';
import { MAX_PARAM_LENGTH } from './errorHandler.js';
import { RATE_LIMITS } from './rateLimit.js';

const errorOf = (answer: RawAnswer) => JSON.parse(answer.body) as { error: string; code: string };

/** Sends bytes as they are on a fresh connection and reads the whole answer (the server closes it). */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/**
 * Issue 39, items 4 and 5: what the router, the HTTP parser and the database would refuse is answered before
 * them, in the documented error body and in words — and the rate limits say how long to wait.
 */
describe.each(DATABASES)('refusals at the edge (%s)', (database) => {
  let ctx: TestContext;
  let http: Awaited<ReturnType<typeof rawHttpClient>>;
  let session: Record<string, string>;
  let token: string;
  let owner: Awaited<ReturnType<typeof signInNewUser>>;

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    owner = await signInNewUser(ctx);
    await insertWorkspace(ctx.platform, { userId: owner.userId, name: 'edge-app' });
    session = {
      cookie: [...owner.client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-xsrf-token': owner.client.cookies.get('XSRF-TOKEN') ?? '',
    };
    const created = await owner.client.post('/api/api-tokens', {
      name: 'edge',
      scopes: ['write'],
      expires_in_days: null,
    });
    token = (created.json() as CreatedApiToken).token;
    http = await rawHttpClient(ctx.app);
  });
  afterAll(async () => {
    http?.close();
    await ctx?.close();
  });

  it('names a path parameter with a NUL byte, or of 5,000 characters, as no valid workspace name', async () => {
    for (const value of ['a%00b', 'x'.repeat(5000)]) {
      const answer = await http.request('GET', `/api/workspace-details/${value}`, session, undefined);
      expect(answer.status).toBe(400);
      expect(errorOf(answer)).toMatchObject({ code: 'invalid_request' });
      expect(errorOf(answer).error).toMatch(/^".{1,61}" is not a valid workspace name: letters, digits/);
    }
    const alert = await http.request(
      'POST',
      '/api/alert-acknowledge/a%00b',
      { ...session, 'content-type': 'application/json' },
      Buffer.from('{}'),
    );
    expect(errorOf(alert).error).toMatch(/is not a valid alert id/);
    const subscription = await http.request('GET', '/api/subscriptions/a%00b', session, undefined);
    expect(errorOf(subscription).error).toMatch(/is not a valid subscription id/);
  });

  it('answers the router refusals in the error body: broken percent-encoding, a part past its length', async () => {
    const broken = await http.request('GET', '/api/workspace-details/%ff%fe', session, undefined);
    expect(broken.status).toBe(400);
    expect(errorOf(broken)).toEqual({
      code: 'invalid_request',
      error:
        'The address is not valid: a "%" in it must start the percent-encoding of UTF-8 text (as %C3%A9 for é)',
      detail:
        'The address is not valid: a "%" in it must start the percent-encoding of UTF-8 text (as %C3%A9 for é)',
    });
    const long = await http.request(
      'GET',
      `/api/workspace-details/${'x'.repeat(MAX_PARAM_LENGTH + 1)}`,
      session,
      undefined,
    );
    expect(long.status).toBe(414);
    expect(errorOf(long)).toMatchObject({ code: 'uri_too_long' });
    expect(long.body).not.toContain('xxxxxxxxxx');
  });

  it("answers what Node's HTTP parser refuses in the error body", async () => {
    const huge = await rawExchange(
      http.port,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1.1 431 /);
    expect(JSON.parse(huge.split('\r\n\r\n')[1] ?? '')).toMatchObject({ code: 'headers_too_large' });
    const garbage = await rawExchange(http.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1.1 400 /);
    expect(JSON.parse(garbage.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      code: 'invalid_request',
      error: 'The request is not valid HTTP',
    });
  });

  it('refuses NUL and broken Unicode in a body or a query, naming the field and never echoing it', async () => {
    const json = { ...session, 'content-type': 'application/json' };
    const name = await http.request(
      'POST',
      '/api/api-tokens',
      json,
      Buffer.from(JSON.stringify({ name: 'ci\u0000bot', scopes: ['read'], expires_in_days: null })),
    );
    expect(name.status).toBe(400);
    expect(errorOf(name).error).toBe('The field "name" holds a NUL character, which Slipway cannot store');
    const surrogate = await http.request(
      'POST',
      '/api/session/state',
      json,
      Buffer.from('{"sessionId":"sess_12345678","stateData":{"note":"\\ud800"}}'),
    );
    expect(surrogate.status).toBe(400);
    expect(errorOf(surrogate).error).toBe(
      'The field "stateData.note" holds broken Unicode (a lone surrogate), which Slipway cannot store',
    );
    const query = await http.request(
      'GET',
      '/api/workspace-logs/edge-app?service=we%00b',
      session,
      undefined,
    );
    expect(query.status).toBe(400);
    expect(errorOf(query).error).toBe(
      'The query parameter "service" holds a NUL character, which Slipway cannot store',
    );
    // The database still answers.
    expect((await owner.client.get('/api/api-tokens')).statusCode).toBe(200);
  });

  it('says in words what is wrong with a field, where the contract wrote nothing', async () => {
    const answer = await http.request(
      'PUT',
      '/api/workspace-deploy-on-push/edge-app',
      { ...session, 'content-type': 'application/json' },
      Buffer.from('{"enabled":"yes"}'),
    );
    expect(answer.status).toBe(400);
    expect(errorOf(answer).error).toBe('The field "enabled" must be true or false');
    const missing = await http.request(
      'POST',
      '/api/api-tokens',
      { ...session, 'content-type': 'application/json' },
      Buffer.from('{"name":"x","expires_in_days":null}'),
    );
    expect(errorOf(missing).error).toBe('The field "scopes" is missing');
  });

  it('tells a token how many requests are left, and past the limit how long to wait', async () => {
    await ctx.platform.kv.flush('ratelimit');
    const bearer = { authorization: `Bearer ${token}` };
    const first = await http.request('GET', '/api/user', bearer, undefined);
    expect(first.headers['ratelimit-limit']).toBe(String(RATE_LIMITS.apiToken.limit));
    expect(first.headers['ratelimit-remaining']).toBe(String(RATE_LIMITS.apiToken.limit - 1));
    const reset = Number(first.headers['ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    // Spend the rest of the window, a batch at a time.
    let refused: RawAnswer | undefined;
    for (let sent = 1; sent <= RATE_LIMITS.apiToken.limit && !refused; sent += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => http.request('GET', '/api/user', bearer, undefined)),
      );
      refused = answers.find((answer) => answer.status === 429);
    }
    expect(refused?.status).toBe(429);
    const wait = Number(refused?.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    // The real wait: what is left of the window that started with the first request, never a whole new one.
    expect(wait).toBeLessThanOrEqual(reset);
    expect(refused?.headers['ratelimit-reset']).toBe(String(wait));
    expect(refused?.headers['ratelimit-remaining']).toBe('0');
    expect(errorOf(refused as RawAnswer)).toMatchObject({ code: 'rate_limited' });
  });

  it('limits failed admin sign-ins with the same headers', async () => {
    await ctx.platform.kv.flush('ratelimit');
    const visitor = new TestClient(ctx.app);
    await visitor.get('/api/admin/session-status');
    let last = await visitor.post('/api/admin/auth', { adminPassword: 'wrong' });
    for (let attempt = 2; attempt <= RATE_LIMITS.adminSignIn.limit + 1; attempt++) {
      last = await visitor.post('/api/admin/auth', { adminPassword: 'wrong' });
    }
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(last.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(last.headers['ratelimit-limit']).toBe(String(RATE_LIMITS.adminSignIn.limit));
  });
});
