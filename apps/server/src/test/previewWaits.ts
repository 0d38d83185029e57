import type { Preview } from '@slipway/contract';
import { waitUntil } from './runningWorkspaces.js';
import type { TestClient } from './testClient.js';
import type { TestContext } from './testPlatform.js';

/** How long a preview may take to go live on a busy machine: a bound, not an expectation. */
export const LIVE_IN_MS = 240_000;

/**
 * The previews of `workspace` as its owner lists them, and a wait that runs the preview deployer (the leased
 * timer, by hand) until preview `number` passes `check`.
 */
export function previewWaits(engine: { ctx: TestContext; client: TestClient }, workspace: string) {
  const listed = async (number: number) =>
    ((await engine.client.get(`/api/workspace-previews/${workspace}`)).json() as Preview[]).find(
      (p) => p.number === number,
    );
  const until = async (number: number, check: (preview: Preview | undefined) => boolean, what: string) =>
    (
      await waitUntil(
        async () => {
          await engine.ctx.platform.previews.check();
          const preview = await listed(number);
          return check(preview) && { preview };
        },
        LIVE_IN_MS,
        what,
      )
    ).preview as Preview;
  return { listed, until };
}
