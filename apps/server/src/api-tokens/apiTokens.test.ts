import { randomUUID } from 'node:crypto';
import {
  buildPath,
  type CreatedApiToken,
  pathParamNames,
  ROUTE_LIST,
  scopesAllow,
  TOKEN_RULES,
  type TokenRule,
} from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, auditLog } from '../infra/db/schema.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

describe.each(DATABASES)('API tokens (%s)', (database) => {
  let ctx: TestContext;
  let owner: TestClient;
  const bearer = (token: string) => {
    const client = new TestClient(ctx.app);
    client.sendXsrf = false;
    const headers = { authorization: `Bearer ${token}` };
    return {
      get: (url: string) => client.request('GET', url, undefined, headers),
      post: (url: string, body: unknown = {}) => client.request('POST', url, body, headers),
      put: (url: string, body: unknown = {}) => client.request('PUT', url, body, headers),
    };
  };
  const create = async (client: TestClient, body: Record<string, unknown>) => {
    const response = await client.post('/api/api-tokens', { expires_in_days: null, ...body });
    expect(response.statusCode).toBe(201);
    return response.json() as CreatedApiToken;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    owner = await new TestClient(ctx.app).signIn('operator');
  });
  afterAll(async () => ctx?.close());

  it('shows a new token once, keeps only its hash, lists it without it and audits each step', async () => {
    const created = await create(owner, { name: 'ci', scopes: ['read', 'deploy'] });
    expect(created.token).toMatch(/^slw_[A-Za-z0-9]{40}$/);
    expect(created.api_token).toMatchObject({ name: 'ci', scopes: ['read', 'deploy'], workspaces: null });
    expect(created.api_token.prefix).toBe(created.token.slice(0, 8));

    const listed = await owner.get('/api/api-tokens');
    expect(listed.headers['cache-control']).toBe('no-store');
    expect(listed.body).not.toContain(created.token);
    expect((listed.json() as { id: string }[]).map((t) => t.id)).toContain(created.api_token.id);
    const [row] = await ctx.platform.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.id, created.api_token.id));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));

    expect((await bearer(created.token).get('/api/user')).statusCode).toBe(200);
    const revoked = await owner.delete(`/api/api-tokens/${created.api_token.id}`);
    expect(revoked.statusCode).toBe(200);
    const after = await bearer(created.token).get('/api/user');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({
      error: 'This API token is not valid: it may have expired or been revoked',
    });

    const audit = await ctx.platform.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'api_token.revoked'));
    expect(audit.map((a) => a.detail.token_id)).toContain(created.api_token.id);
    const made = await ctx.platform.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'api_token.created'));
    expect(made.map((a) => a.detail.token_id)).toContain(created.api_token.id);
  });

  it('refuses what is not a valid token, and never falls back to the session cookie', async () => {
    const { token, api_token } = await create(owner, {
      name: 'short-lived',
      scopes: ['read'],
      expires_in_days: 1,
    });
    await ctx.platform.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, api_token.id));
    for (const header of [
      `Bearer ${token}`,
      'Bearer slw_nope',
      'Basic abc',
      `Bearer ${token.slice(0, -1)}x`,
    ]) {
      const response = await owner.request('GET', '/api/user', undefined, { authorization: header });
      expect(response.statusCode, header).toBe(401);
    }
  });

  it('needs no anti-forgery token, and records when it was last used', async () => {
    const { token, api_token } = await create(owner, { name: 'writer', scopes: ['write'] });
    const put = await bearer(token).put('/api/workspace-deploy-on-push/nowhere', { enabled: true });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ code: 'workspace_not_found' });
    const listed = (await owner.get('/api/api-tokens')).json() as {
      id: string;
      last_used_at: string | null;
    }[];
    expect(listed.find((t) => t.id === api_token.id)?.last_used_at).not.toBeNull();
  });

  it("another user's token reaches only that user's things", async () => {
    const other = await signInNewUser(ctx);
    const { token } = await create(other.client, { name: 'theirs', scopes: ['write', 'secrets:read'] });
    const mine = await owner.post('/api/env-variables/private-ws/upload', {
      variables: [{ key: 'A', value: 'owner-secret-value' }],
    });
    expect(mine.statusCode).toBe(200);
    const theirs = await bearer(token).get('/api/env-variables/private-ws');
    expect(theirs.body).not.toContain('owner-secret-value');
  });

  it('limits a token to its workspaces, wherever the route names one', async () => {
    const { token } = await create(owner, { name: 'one-ws', scopes: ['write'], workspaces: ['alpha'] });
    const client = bearer(token);
    const inside = await client.get('/api/workspace-details/alpha');
    expect(inside.json()).toMatchObject({ code: 'workspace_not_found' });
    const outside = await client.get('/api/workspace-details/beta');
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ error: 'This API token is limited to the workspaces alpha' });
    const deploy = await client.post('/api/workflow/deployment/start', {
      sessionId: `sess_${randomUUID()}`,
      owner: 'operator',
      repo: 'beta',
      branch: 'main',
    });
    expect(deploy.statusCode).toBe(403);
    // Account-level reads stay open; reads across workspaces do not.
    expect((await client.get('/api/user')).statusCode).toBe(200);
    expect((await client.get('/api/github/repos')).statusCode).toBe(403);
  });

  it('shows a token limited to some workspaces nothing of the others, in lists too', async () => {
    const userId = (await owner.get('/api/user')).json().id as string;
    for (const name of ['listed-in', 'listed-out']) {
      await insertWorkspace(ctx.platform, {
        userId,
        name,
        serviceUrls: { web: `http://web-${name}.localhost` },
      });
    }
    const { token } = await create(owner, {
      name: 'listed',
      scopes: ['read', 'secrets:read'],
      workspaces: ['listed-in'],
    });
    const client = bearer(token);
    const listed = (await client.get('/api/user-workspaces')).json() as { workspace_name: string }[];
    expect(listed.map((workspace) => workspace.workspace_name)).toEqual(['listed-in']);
    const bySession = (await owner.get('/api/user-workspaces')).json() as { workspace_name: string }[];
    expect(bySession.map((workspace) => workspace.workspace_name)).toEqual(
      expect.arrayContaining(['listed-in', 'listed-out']),
    );
    // Every read the token may make, its workspace named where a route names one: no answer shows the other.
    const reads = ROUTE_LIST.filter((definition) => {
      const rule: TokenRule = TOKEN_RULES[definition.name];
      return (
        definition.method === 'GET' &&
        definition.kind === 'json' &&
        rule.scope !== 'never' &&
        rule.scope !== 'public' &&
        scopesAllow(['read', 'secrets:read'], rule.scope)
      );
    });
    let answered = 0;
    for (const definition of reads) {
      const params = Object.fromEntries(
        pathParamNames(definition.path).map((name) => [
          name,
          name === 'name' || name === 'workspace' ? 'listed-in' : name === 'repo' ? 'listed-in' : 'x',
        ]),
      );
      const answer = await client.get(buildPath(definition.path, params));
      if (answer.statusCode === 200) answered++;
      expect(answer.body, `${definition.name} ${answer.statusCode}`).not.toContain('listed-out');
    }
    expect(answered).toBeGreaterThan(15);
  });

  it('answers 429 with Retry-After past the per-token limit', async () => {
    const { token } = await create(owner, { name: 'busy', scopes: ['read'] });
    const client = bearer(token);
    let status = 0;
    let response: Awaited<ReturnType<typeof client.get>> | undefined;
    for (let i = 0; i < 301 && status !== 429; i++) {
      response = await client.get('/api/vm-sizes');
      status = response.statusCode;
    }
    expect(status).toBe(429);
    expect(Number(response!.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('explains a bad request to create one', async () => {
    const noScope = await owner.post('/api/api-tokens', { name: 'x', scopes: [], expires_in_days: null });
    expect(noScope.statusCode).toBe(400);
    expect(noScope.json()).toMatchObject({ error: 'Choose at least one scope' });
    const tooLong = await owner.post('/api/api-tokens', {
      name: 'x',
      scopes: ['read'],
      expires_in_days: 400,
    });
    expect(tooLong.json()).toMatchObject({ error: 'A token lasts at most 365 days' });
  });
});
