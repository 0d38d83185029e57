import { afterAll, beforeAll } from 'vitest';
import { cleanUpWorkspaces } from './deployments.js';
import { createHostileWorld, type HostileWorld } from './fixtures/hostileRepos.js';
import { TestClient } from './testClient.js';
import { createTestContext, type TestContext, type TestPlatformOptions } from './testPlatform.js';

/**
 * For a test file on the real engine: repositories written by the test (`world.repo`), a platform with its
 * deployment workers running and `operator` signed in — all removed after the file. Read the fields inside
 * tests (they are set in `beforeAll`).
 */
export function useEngineWorld(
  env: Record<string, string> = {},
  options: Omit<TestPlatformOptions, 'env'> = {},
) {
  const engine = {} as { world: HostileWorld; ctx: TestContext; client: TestClient };
  beforeAll(async () => {
    engine.world = createHostileWorld();
    engine.ctx = await createTestContext({ ...options, env: { LOCAL_REPOS_DIR: engine.world.root, ...env } });
    await engine.ctx.platform.runs.startWorkers();
    engine.client = await new TestClient(engine.ctx.app).signIn('operator');
  });
  afterAll(async () => {
    if (engine.ctx) await cleanUpWorkspaces(engine.ctx);
    await engine.ctx?.close();
    engine.world?.cleanup();
  });
  return engine;
}
