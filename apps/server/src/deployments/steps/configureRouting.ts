import { publishRoutes, targetsOf } from '../publishedRoutes.js';
import { type RunState, requireTarget } from '../runState.js';
import { replicaCounts } from '../serviceRoles.js';
import { retireCandidate } from '../sideBySide.js';

/** One HTTPS route per service (or plain local links without Caddy), replacing the workspace's routes at once. */
export async function configureRouting(state: RunState) {
  const target = requireTarget(state);
  state.serviceUrls = await publishRoutes(
    state.deps,
    state.workspace,
    targetsOf(state.ports, replicaCounts(state.roles), (port) => target.upstream(port)),
  );
  for (const [service, url] of Object.entries(state.serviceUrls)) state.log.write(`${service}: ${url}`);
  // The workspace's own project serves this version now: the copy that stood in while it was replaced goes.
  await retireCandidate(state, 'published');
}
