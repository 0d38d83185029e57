// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell expansions are the test data here
import { ENV_MAX_VARIABLES, workspaceNameSchema } from '@slipway/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envVariables } from '../infra/db/schema.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

const TRICKY = [
  'line one',
  'line "two" with \'single\' quotes',
  '$(id) ${HOME} `whoami` $PATH \\n \\ back',
  '\ttab, CRLF\r\nunicode é 😀 and = signs == ',
  '',
].join('\n');

const many = (count: number, prefix = 'VAR') =>
  Array.from({ length: count }, (_, i) => ({ key: `${prefix}_${i}`, value: `value-${i}` }));

describe.each(DATABASES)('environment variables API (%s)', (database) => {
  let ctx: TestContext;
  let alice: { client: TestClient; userId: string };
  let bob: { client: TestClient; userId: string };

  beforeAll(async () => {
    ctx = await createTestContext({ database });
    alice = await signInNewUser(ctx, { login: 'alice' });
    bob = await signInNewUser(ctx, { login: 'bob' });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers 404 "No environment variables" for a workspace with none', async () => {
    const response = await alice.client.get('/api/env-variables/fresh-app');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('No environment variables');
  });

  it('keeps every byte of a value with newlines, quotes, $(...) and ${...}; the database holds only ciphertext', async () => {
    const upload = await alice.client.post('/api/env-variables/my-app/upload', {
      variables: [
        { key: 'SECRET', value: TRICKY },
        { key: 'PLAIN', value: '  spaces kept  ' },
      ],
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json()).toMatchObject({ success: true, count: 2, added: 2, updated: 0 });

    const read = await alice.client.get('/api/env-variables/my-app');
    expect(read.statusCode).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.json()).toEqual({
      workspace_name: 'my-app',
      variables: [
        { key: 'SECRET', value: TRICKY },
        { key: 'PLAIN', value: '  spaces kept  ' },
      ],
      count: 2,
    });

    const rows = await ctx.platform.db
      .select()
      .from(envVariables)
      .where(and(eq(envVariables.userId, alice.userId), eq(envVariables.workspaceName, 'my-app')));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const fragment of ['line one', '$(id)', '${HOME}', 'spaces kept'])
        expect(row.valueEnc).not.toContain(fragment);
      expect(row.valueEnc).not.toContain(Buffer.from('line one').toString('base64'));
    }
    expect(await ctx.platform.envVariables.readPlaintext(alice.userId, 'my-app')).toEqual(
      read.json().variables,
    );
  });

  it('merges an upload: new keys override same-named ones, others are kept in their place', async () => {
    await alice.client.post('/api/env-variables/merge-app/upload', {
      variables: [
        { key: 'A', value: '1' },
        { key: 'B', value: '2' },
      ],
    });
    const second = await alice.client.post('/api/env-variables/merge-app/upload', {
      variables: [
        { key: 'B', value: '3' },
        { key: 'C', value: '4' },
      ],
    });
    expect(second.json()).toMatchObject({
      count: 3,
      added: 1,
      updated: 1,
      message: 'Saved 2 environment variables',
    });
    expect((await alice.client.get('/api/env-variables/merge-app')).json().variables).toEqual([
      { key: 'A', value: '1' },
      { key: 'B', value: '3' },
      { key: 'C', value: '4' },
    ]);
  });

  it('refuses invalid names with a message naming the key, and stores nothing of that upload', async () => {
    for (const key of ['A=B', 'FOO BAR', '1ABC', 'a-b', 'x'.repeat(257)]) {
      const response = await alice.client.post('/api/env-variables/names-app/upload', {
        variables: [
          { key: 'GOOD', value: 'kept?' },
          { key, value: 'v' },
        ],
      });
      expect(response.statusCode, key).toBe(400);
      expect(response.json().error).toContain(`"${key.slice(0, 60)}`);
    }
    const foo = await alice.client.post('/api/env-variables/names-app/upload', {
      variables: [{ key: 'FOO BAR', value: 'v' }],
    });
    expect(foo.json().error).toBe(
      'Invalid variable name "FOO BAR": use letters, digits and underscores, not starting with a digit',
    );
    expect((await alice.client.get('/api/env-variables/names-app')).statusCode).toBe(404);
  });

  it('refuses NUL and oversized values without echoing the value', async () => {
    const nul = await alice.client.post('/api/env-variables/limits-app/upload', {
      variables: [{ key: 'TOKEN', value: 'hunter2-secret\u0000tail' }],
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error).toBe(
      'The value of "TOKEN" contains a NUL character, which environment variables cannot carry',
    );
    expect(nul.body).not.toContain('hunter2');

    const big = await alice.client.post('/api/env-variables/limits-app/upload', {
      variables: [{ key: 'BIG', value: `hunter2${'x'.repeat(64 * 1024)}` }],
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('The value of "BIG" is too large (at most 64 KiB)');
    expect(big.body).not.toContain('hunter2');
  });

  it('limits a workspace to 200 variables and 512 KiB, counting what is already stored', async () => {
    const tooMany = await alice.client.post('/api/env-variables/count-app/upload', { variables: many(201) });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe(
      `A workspace can hold at most ${ENV_MAX_VARIABLES} environment variables`,
    );

    expect(
      (await alice.client.post('/api/env-variables/count-app/upload', { variables: many(150) })).statusCode,
    ).toBe(200);
    const overflow = await alice.client.post('/api/env-variables/count-app/upload', {
      variables: many(60, 'MORE'),
    });
    expect(overflow.statusCode).toBe(400);
    expect(overflow.json().error).toBe(
      'A workspace can hold at most 200 environment variables; this would make 210',
    );
    expect((await alice.client.get('/api/env-variables/count-app')).json().count).toBe(150);

    const large = Array.from({ length: 9 }, (_, i) => ({ key: `LARGE_${i}`, value: 'y'.repeat(60 * 1024) }));
    const tooLarge = await alice.client.post('/api/env-variables/size-app/upload', { variables: large });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe(
      'The environment variables of a workspace may total at most 512 KiB; this would make 541 KiB',
    );

    const hugeBody = await alice.client.post('/api/env-variables/size-app/upload', {
      variables: [{ key: 'HUGE', value: 'z'.repeat(3 * 1024 * 1024) }],
    });
    expect(hugeBody.statusCode).toBe(413);
    expect((await alice.client.get('/api/env-variables/size-app')).statusCode).toBe(404);
  });

  it("scopes everything to the owner: another user's workspace of the same name is a different, empty set", async () => {
    const theirs = await bob.client.get('/api/env-variables/my-app');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain('line one');
    await bob.client.post('/api/env-variables/my-app/upload', {
      variables: [{ key: 'SECRET', value: 'bob' }],
    });
    expect((await bob.client.get('/api/env-variables/my-app')).json().variables).toEqual([
      { key: 'SECRET', value: 'bob' },
    ]);
    expect((await bob.client.delete('/api/env-variables/my-app')).json()).toEqual({
      success: true,
      deleted: 1,
    });
    expect((await bob.client.delete('/api/env-variables/my-app/PLAIN')).statusCode).toBe(404);
    const mine = (await alice.client.get('/api/env-variables/my-app')).json();
    expect(mine.variables).toEqual([
      { key: 'SECRET', value: TRICKY },
      { key: 'PLAIN', value: '  spaces kept  ' },
    ]);
  });

  it('edits one value, deletes one key, then deletes all', async () => {
    await alice.client.post('/api/env-variables/edit-app/upload', { variables: many(3) });
    const put = await alice.client.put('/api/env-variables/edit-app/VAR_1', { value: 'new\nvalue $(x)' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ count: 3, updated: 1, added: 0 });
    expect((await alice.client.put('/api/env-variables/edit-app/BAD%20KEY', { value: 'v' })).statusCode).toBe(
      400,
    );
    expect((await alice.client.delete('/api/env-variables/edit-app/VAR_0')).json()).toEqual({
      success: true,
      deleted: 1,
    });
    const missing = await alice.client.delete('/api/env-variables/edit-app/VAR_0');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('No environment variable "VAR_0" in this workspace');
    expect((await alice.client.get('/api/env-variables/edit-app')).json().variables).toEqual([
      { key: 'VAR_1', value: 'new\nvalue $(x)' },
      { key: 'VAR_2', value: 'value-2' },
    ]);
    expect((await alice.client.delete('/api/env-variables/edit-app')).json()).toEqual({
      success: true,
      deleted: 2,
    });
    expect((await alice.client.get('/api/env-variables/edit-app')).statusCode).toBe(404);
    expect(await ctx.platform.envVariables.readPlaintext(alice.userId, 'edit-app')).toEqual([]);
  });

  it('validates workspace names, and requires a whitelisted user and the anti-forgery token', async () => {
    // '.' and '..' never reach the route through inject (it normalises dot segments), so check the schema.
    // (Over 100 characters, the router itself answers 414 before the route.)
    for (const name of ['.', '..', 'x'.repeat(101)])
      expect(workspaceNameSchema.safeParse(name).success).toBe(false);
    for (const name of ['a%20b', 'a%2Fb', 'a%2F..', '%24(id)']) {
      const response = await alice.client.get(`/api/env-variables/${name}`);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().error).toMatch(/Invalid workspace name/);
    }
    const waiting = await signInNewUser(ctx, { whitelisted: false });
    expect((await waiting.client.get('/api/env-variables/my-app')).statusCode).toBe(403);
    alice.client.sendXsrf = false;
    try {
      expect((await alice.client.delete('/api/env-variables/my-app')).statusCode).toBe(403);
    } finally {
      alice.client.sendXsrf = true;
    }
    expect((await alice.client.get('/api/env-variables/my-app')).json().count).toBe(2);
  });

  it('gives the deployment engine plaintext and a way to delete a workspace set', async () => {
    await ctx.platform.envVariables.upload(alice.userId, 'engine-app', [{ key: 'K', value: 'v' }]);
    expect(await ctx.platform.envVariables.readPlaintext(alice.userId, 'engine-app')).toEqual([
      { key: 'K', value: 'v' },
    ]);
    expect(await ctx.platform.envVariables.readPlaintext(bob.userId, 'engine-app')).toEqual([]);
    expect(await ctx.platform.envVariables.deleteAll(alice.userId, 'engine-app')).toEqual({
      success: true,
      deleted: 1,
    });
  });
});
