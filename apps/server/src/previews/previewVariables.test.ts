import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

/** Which variables previews get: none by default, marked ones, preview values; never a value in an answer. */
describe('preview variables', () => {
  let ctx: TestContext;
  let client: TestClient;
  let userId = '';
  beforeAll(async () => {
    ctx = await createTestContext();
    client = await new TestClient(ctx.app).signIn('operator');
    const user = await ctx.platform.users.findByLogin('operator');
    userId = user!.id;
    await ctx.platform.db.execute(
      `insert into workspaces (user_id, name, repo_owner, repo_name, repo_url, branch, vm_size) values ('${userId}', 'shop', 'operator', 'shop', 'x', 'main', 'Standard_B2ats_v2')` as never,
    );
    await client.post('/api/env-variables/shop/upload', {
      variables: [
        { key: 'DATABASE_URL', value: 'postgres://production' },
        { key: 'PUBLIC_NAME', value: 'Shop' },
        { key: 'STRIPE_KEY', value: 'sk_live' },
      ],
    });
  });
  afterAll(() => ctx?.close());

  const read = (trusted: boolean) => ctx.platform.previews.variablesFor(userId, 'shop', trusted);

  it('gives previews none by default, and lists every key without a value', async () => {
    expect(await read(true)).toEqual([]);
    const listed = await client.get('/api/workspace-preview-variables/shop');
    expect(listed.json()).toEqual([
      { key: 'DATABASE_URL', also_for_previews: false, has_preview_value: false },
      { key: 'PUBLIC_NAME', also_for_previews: false, has_preview_value: false },
      { key: 'STRIPE_KEY', also_for_previews: false, has_preview_value: false },
    ]);
    expect(listed.body).not.toContain('production');
  });

  it('gives marked variables, preview values over production ones, and strangers only preview values', async () => {
    const marked = await client.put('/api/workspace-preview-variables/shop/PUBLIC_NAME', {
      also_for_previews: true,
    });
    expect(marked.json()).toEqual({ key: 'PUBLIC_NAME', also_for_previews: true, has_preview_value: false });
    const own = await client.put('/api/workspace-preview-variables/shop/DATABASE_URL', {
      preview_value: 'postgres://preview',
    });
    expect(own.json()).toEqual({ key: 'DATABASE_URL', also_for_previews: true, has_preview_value: true });
    expect(own.body).not.toContain('postgres');
    expect(await read(true)).toEqual([
      { key: 'DATABASE_URL', value: 'postgres://preview' },
      { key: 'PUBLIC_NAME', value: 'Shop' },
    ]);
    expect(await read(false)).toEqual([{ key: 'DATABASE_URL', value: 'postgres://preview' }]);
    // The existing API is unchanged: production's values, as saved.
    const production = await client.get('/api/env-variables/shop');
    expect(production.json()).toMatchObject({ count: 3 });
    expect(production.body).toContain('postgres://production');
    expect(
      (await client.put('/api/workspace-preview-variables/shop/NOPE', { also_for_previews: true }))
        .statusCode,
    ).toBe(404);
  });

  it('answers the default settings, and keeps the others when one changes', async () => {
    expect((await client.get('/api/workspace-preview-settings/shop')).json()).toEqual({
      enabled: false,
      vm_size: 'Standard_B2ats_v2',
      max_running: 3,
      inactivity_days: 7,
    });
    const saved = await client.put('/api/workspace-preview-settings/shop', {
      enabled: true,
      inactivity_days: 14,
    });
    expect(saved.json()).toMatchObject({ enabled: true, max_running: 3, inactivity_days: 14 });
    expect((await client.get('/api/workspace-preview-settings/nope')).statusCode).toBe(404);
    expect((await client.get('/api/workspace-previews/shop')).json()).toEqual([]);
  });
});
