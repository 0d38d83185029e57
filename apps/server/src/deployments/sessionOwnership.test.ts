import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureRepos } from '../test/fixtures/fixtureRepos.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

describe.each(DATABASES)('workflow session ids across users (%s)', (database) => {
  let ctx: TestContext;
  let repos: ReturnType<typeof createFixtureRepos>;
  beforeAll(async () => {
    repos = createFixtureRepos();
    // No deployment worker runs here: a started deployment stays queued, which is all this needs.
    ctx = await createTestContext({ database, env: { LOCAL_REPOS_DIR: repos.root } });
  });
  afterAll(async () => {
    await ctx?.close();
    repos?.cleanup();
  });

  it("answers another user's session id exactly as an unknown one: 404, never 409", async () => {
    const owner = await signInNewUser(ctx);
    const stranger = await signInNewUser(ctx);
    const sessionId = randomUUID();
    const start = { owner: 'operator', repo: 'single-dockerfile', branch: 'main', sessionId };
    expect((await owner.client.post('/api/workflow/deployment/start', start)).statusCode).toBe(200);

    const unknown = await stranger.client.get(`/api/workflow/deployment/status/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    const reused = await stranger.client.post('/api/workflow/deployment/start', start);
    expect(reused.statusCode).toBe(404);
    expect(reused.json()).toEqual(unknown.json());
    const status = await stranger.client.get(`/api/workflow/deployment/status/${sessionId}`);
    expect(status.statusCode).toBe(404);
    expect(status.json()).toEqual(unknown.json());
    // The owner still sees their deployment.
    expect((await owner.client.get(`/api/workflow/deployment/status/${sessionId}`)).statusCode).toBe(200);
  });
});
