import type { AuditLogEntry, CreatedApiToken } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAdmin } from '../test/adminClient.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, type TestContext } from '../test/testPlatform.js';

describe.each(DATABASES)('admin: audit log (%s)', (database) => {
  let ctx: TestContext;
  let admin: TestClient;
  let operator: TestClient;
  const entries = async (query = '') => {
    const response = await admin.get(`/api/admin/audit-log${query}`);
    expect(response.statusCode).toBe(200);
    return (response.json() as { entries: AuditLogEntry[] }).entries;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    admin = await signInAdmin(ctx);
    operator = await new TestClient(ctx.app).signIn('operator');
  });
  afterAll(async () => ctx?.close());

  it('is the admin session’s only: a visitor and a signed-in user are refused', async () => {
    expect((await new TestClient(ctx.app).get('/api/admin/audit-log')).statusCode).toBe(401);
    const asUser = await operator.get('/api/admin/audit-log');
    expect(asUser.statusCode).toBe(401);
    expect(asUser.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('lists a token’s creation and revocation, newest first', async () => {
    const created = await operator.post('/api/api-tokens', {
      name: 'audit-ci',
      scopes: ['read', 'deploy'],
      expires_in_days: 30,
    });
    expect(created.statusCode).toBe(201);
    const { token, api_token } = created.json() as CreatedApiToken;
    expect((await operator.delete(`/api/api-tokens/${api_token.id}`)).statusCode).toBe(200);

    const [revoked, made] = await entries();
    expect(revoked).toMatchObject({
      actor: 'operator',
      action: 'api_token.revoked',
      detail: { token_id: api_token.id, name: 'audit-ci' },
    });
    expect(made).toMatchObject({
      actor: 'operator',
      action: 'api_token.created',
      target: revoked?.target,
      detail: { token_id: api_token.id, name: 'audit-ci', scopes: ['read', 'deploy'] },
    });
    expect(revoked!.id).toBeGreaterThan(made!.id);
    expect(Date.parse(revoked!.at)).toBeGreaterThanOrEqual(Date.parse(made!.at));
    // The trail names the token; it never holds the token itself.
    expect(JSON.stringify(await entries())).not.toContain(token.slice(4));
  });

  it('answers at most `limit` entries (100 by default, 500 at most)', async () => {
    for (let i = 0; i < 3; i += 1) {
      await operator.post('/api/api-tokens', { name: `t${i}`, scopes: ['read'], expires_in_days: null });
    }
    const [newest] = await entries('?limit=1');
    expect(newest).toMatchObject({ action: 'api_token.created', detail: { name: 't2' } });
    expect(await entries('?limit=2')).toHaveLength(2);
    expect((await entries()).length).toBeGreaterThanOrEqual(5);
    const tooMany = await admin.get('/api/admin/audit-log?limit=501');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ error: 'The limit must be a number from 1 to 500' });
  });
});
