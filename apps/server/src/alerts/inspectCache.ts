import type Docker from 'dockerode';
import type { ContainerSummary } from '../workspaces/workspaceDocker.js';

/** A running container is inspected again at least this often, whatever the events said. */
export const INSPECT_KEPT_MS = 5 * 60_000;

/** The health in a container's list status: "Up 3 minutes (healthy)" → "healthy". */
const healthMark = (summary: ContainerSummary) => /\(([^)]*)\)\s*$/.exec(summary.Status ?? '')?.[1] ?? '';

/**
 * Inspections of running containers, kept between the safety poll's passes: at rest, a pass over 200
 * workspaces was mostly 200 inspects that said what the last pass's had said. A kept one is used only while the
 * engine's fresh list shows the container running with the same health; any engine event about it (die,
 * start, restart, health_status, oom, kill) forgets it, and none is older than INSPECT_KEPT_MS — so a death or a
 * restart the event stream missed is still found, by the list at once and by the counter within that time.
 */
export function createInspectCache(keptMs = INSPECT_KEPT_MS) {
  const kept = new Map<string, { info: Docker.ContainerInspectInfo; health: string; at: number }>();
  return {
    async inspect(docker: Docker, summary: ContainerSummary): Promise<Docker.ContainerInspectInfo> {
      const entry = kept.get(summary.Id);
      const health = healthMark(summary);
      if (entry && summary.State === 'running' && entry.health === health && Date.now() - entry.at < keptMs) {
        return entry.info;
      }
      const info = await docker.getContainer(summary.Id).inspect();
      if (info.State.Running && !info.State.Restarting)
        kept.set(summary.Id, { info, health, at: Date.now() });
      else kept.delete(summary.Id);
      return info;
    },
    forget(containerId: string) {
      kept.delete(containerId);
    },
    clear() {
      kept.clear();
    },
    forgetOld() {
      for (const [id, entry] of kept) if (Date.now() - entry.at >= keptMs) kept.delete(id);
    },
    get size() {
      return kept.size;
    },
  };
}
