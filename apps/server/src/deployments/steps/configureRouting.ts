import { publishRoutes } from '../publishedRoutes.js';
import { type RunState, requireTarget } from '../runState.js';
import { retireCandidate } from '../sideBySide.js';

/** One HTTPS route per service (or plain local links without Caddy), replacing the workspace's routes at once. */
export async function configureRouting(state: RunState) {
  const target = requireTarget(state);
  state.serviceUrls = await publishRoutes(
    state.deps,
    state.workspace,
    state.ports.map((port) => ({
      service: port.service,
      upstream: target.upstream(port.hostPort),
      hostPort: port.hostPort,
    })),
  );
  for (const [service, url] of Object.entries(state.serviceUrls)) state.log.write(`${service}: ${url}`);
  // The workspace's own project serves this version now: the copy that stood in while it was replaced goes.
  await retireCandidate(state, 'published');
}
