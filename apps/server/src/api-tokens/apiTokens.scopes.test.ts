import { randomUUID } from 'node:crypto';
import {
  type CreatedApiToken,
  ROUTE_LIST,
  scopesAllow,
  TOKEN_RULES,
  TOKEN_SCOPES,
  type TokenRule,
  type TokenScope,
} from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin } from '../test/adminClient.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';

/** A URL for a route: each path parameter filled with something of the right shape. */
function urlOf(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'README.md';
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      if (/id$/i.test(name)) return randomUUID();
      if (name === 'sessionId') return 'sess_12345678';
      if (name === 'key') return 'SOME_KEY';
      if (name === 'email') return 'someone%40example.com';
      if (name === 'sink_type') return 'email';
      if (name === 'domain') return 'shop.example.com';
      return 'alpha';
    })
    .join('/');
}

const REFUSED = new Set(['insufficient_scope', 'unauthenticated']);

/**
 * Issue 28: every route of the table, called with a token of every single scope (and with every scope at once,
 * an admin session beside it): none lets a token through with less than the table's rule asks, and no admin
 * route answers a token at all. A request "got through" when its answer is anything but the token refusals.
 */
describe('every route against every scope', () => {
  let ctx: TestContext;
  let owner: TestClient;
  const tokens = new Map<string, string>();
  const routes = ROUTE_LIST.filter((r) => r.kind !== 'static' && r.kind !== 'webhook');

  beforeAll(async () => {
    ctx = await createTestContext();
    owner = await new TestClient(ctx.app).signIn('operator');
    for (const scopes of [...TOKEN_SCOPES.map((s) => [s]), [...TOKEN_SCOPES]] as TokenScope[][]) {
      const created = await owner.post('/api/api-tokens', {
        name: scopes.join('+'),
        scopes,
        expires_in_days: null,
      });
      tokens.set(scopes.join('+'), (created.json() as CreatedApiToken).token);
    }
  });
  afterAll(async () => ctx?.close());

  async function call(route: (typeof routes)[number], headers: Record<string, string>, cookies = '') {
    const response = await ctx.app.inject({
      method: route.method,
      url: urlOf(route.path),
      headers: { ...headers, ...(cookies ? { cookie: cookies } : {}), 'content-type': 'application/json' },
      // The scope is checked before the body is read: any body will do.
      ...(route.method === 'GET' ? {} : { payload: '{}' }),
    });
    const code = (() => {
      try {
        return (response.json() as { code?: string }).code;
      } catch {
        return undefined;
      }
    })();
    return { status: response.statusCode, code };
  }

  const allowed = (rule: TokenRule, scopes: TokenScope[]) =>
    rule.scope === 'public' || (rule.scope !== 'never' && scopesAllow(scopes, rule.scope));

  it('lets no token through with less scope than the table requires', async () => {
    const through: string[] = [];
    let refusalsChecked = 0;
    for (const [label, token] of tokens) {
      const scopes = label.split('+') as TokenScope[];
      for (const route of routes) {
        const rule: TokenRule = TOKEN_RULES[route.name];
        // A stream that is let through stays open: only the refusals are called for streams.
        if (allowed(rule, scopes) && route.kind === 'sse') continue;
        const answer = await call(route, { authorization: `Bearer ${token}` });
        const refused =
          answer.status === 403 || answer.status === 401 ? REFUSED.has(answer.code ?? '') : false;
        if (!allowed(rule, scopes)) {
          refusalsChecked++;
          if (!refused)
            through.push(`${label} ${route.method} ${route.path} → ${answer.status} ${answer.code}`);
        } else if (refused) {
          through.push(
            `${label} wrongly refused ${route.method} ${route.path} → ${answer.status} ${answer.code}`,
          );
        }
      }
    }
    expect(through).toEqual([]);
    expect(refusalsChecked).toBeGreaterThan(100);
  });

  it('reaches no admin route with any token, even beside a signed-in admin session', async () => {
    const admin = await signInAdmin(ctx);
    const cookies = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const adminRoutes = routes.filter((r) => r.access === 'admin');
    expect(adminRoutes.length).toBeGreaterThan(10);
    for (const route of adminRoutes) {
      const answer = await call(
        route,
        { authorization: `Bearer ${tokens.get(TOKEN_SCOPES.join('+'))}` },
        cookies,
      );
      expect([answer.status, answer.code], `${route.method} ${route.path}`).toEqual([
        403,
        'insufficient_scope',
      ]);
    }
  });

  it('refuses every route but the public ones without a valid token: none, expired, revoked or malformed', async () => {
    const other = await signInNewUser(ctx);
    const created = (
      await other.client.post('/api/api-tokens', { name: 'gone', scopes: ['write'], expires_in_days: null })
    ).json() as CreatedApiToken;
    await other.client.delete(`/api/api-tokens/${created.api_token.id}`);
    for (const route of routes.filter((r) => TOKEN_RULES[r.name].scope !== 'public')) {
      const revoked = await call(route, { authorization: `Bearer ${created.token}` });
      expect([revoked.status, route.path]).toEqual([401, route.path]);
      const malformed = await call(route, { authorization: 'Bearer' });
      expect([malformed.status, route.path]).toEqual([401, route.path]);
    }
  });
});
