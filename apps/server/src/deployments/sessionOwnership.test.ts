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

  it('answers the same start sent twice (a retry after a dropped connection) with the one deployment it started', async () => {
    const owner = await signInNewUser(ctx);
    const sessionId = randomUUID();
    const start = { owner: 'operator', repo: 'single-dockerfile', branch: 'main', sessionId };
    const first = await owner.client.post('/api/workflow/deployment/start', start);
    const again = await owner.client.post('/api/workflow/deployment/start', start);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const rows = await ctx.platform.db.query.deployments.findMany({
      where: (d, { eq }) => eq(d.sessionId, sessionId),
    });
    expect(rows).toHaveLength(1);
    // The same session id for another workspace is not the same request.
    const other = await owner.client.post('/api/workflow/deployment/start', {
      ...start,
      repo: 'three-service',
    });
    expect(other.statusCode).toBe(409);
  });
});
