import type { WorkspaceNode } from '@slipway/contract';
import type { Logger } from 'pino';
import { scheduledTask } from '../scheduling/scheduledTask.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { AlertsService } from './alertsService.js';
import type { Failure } from './healthChecks.js';

/** The workspace's nodes now (nodes/ reads them: each engine's ping and the swarm's own view). */
export type NodeStates = (workspace: WorkspaceRow) => Promise<WorkspaceNode[]>;

/**
 * A node's alert is raised once it reads lost at two checks in a row (5 s apart: within 15 s of the loss), and
 * resolved once it has read ready for this long. When a manager comes back from a cut, the managers elect again
 * and nodes read down for a moment (docs/guide/cluster.md): neither that moment nor the return flapping around it
 * makes an alert of its own. The dashboard shows every reading as it is.
 */
const LOST_READINGS = 2;
const READY_FOR_MS = 15_000;

const PREFIX = 'node_lost:';
export const nodeLostFingerprint = (index: number) => `${PREFIX}${index}`;

function nodeLostFailure(node: WorkspaceNode): Failure {
  return {
    fingerprint: nodeLostFingerprint(node.index),
    title: `Node ${node.index} lost`,
    description: `${node.message ?? `Node ${node.index} does not answer`}.`,
    alertType: 'node_lost',
    severity: 'critical',
    service: null,
  };
}

/** What the checks remember of each node between passes: lost readings in a row, or since when it reads ready. */
type NodeMemory = Map<string, { lost: number; readySince?: number }>;

/**
 * One look at a workspace's nodes: a node lost at LOST_READINGS checks in a row raises its alert (sent once:
 * `raise` merges a failure whose alert is open), a node ready for READY_FOR_MS resolves it. A node beyond the
 * count is on its way out and alerts nothing; its alert, if open, resolves.
 */
async function checkNodes(
  deps: { alerts: AlertsService; nodeStates: NodeStates },
  memory: NodeMemory,
  row: WorkspaceRow,
): Promise<void> {
  const [nodes, active] = await Promise.all([deps.nodeStates(row), deps.alerts.activeFingerprints(row.id)]);
  const now = Date.now();
  const seen = new Set<string>();
  for (const node of nodes) {
    const fingerprint = nodeLostFingerprint(node.index);
    const key = `${row.id}:${fingerprint}`;
    seen.add(key);
    const before = memory.get(key) ?? { lost: 0 };
    if (node.state === 'lost' && !node.leaving) {
      const lost = before.lost + 1;
      memory.set(key, { lost });
      if (lost >= LOST_READINGS && !active.has(fingerprint))
        await deps.alerts.raise(row, nodeLostFailure(node));
      continue;
    }
    const readySince = before.readySince ?? now;
    memory.set(key, { lost: 0, readySince });
    if (active.has(fingerprint) && (node.leaving || now - readySince >= READY_FOR_MS)) {
      await deps.alerts.recover(row, fingerprint);
    }
  }
  // A node no longer listed (its VM released) has nothing left to be lost.
  for (const fingerprint of active) {
    if (fingerprint.startsWith(PREFIX) && !seen.has(`${row.id}:${fingerprint}`)) {
      await deps.alerts.recover(row, fingerprint);
    }
  }
}

/**
 * The monitor's `node-checks` pass: every watched workspace (live, not being deployed) on more than one node, and
 * any with a node alert still open (its count may have gone back to one), looked at side by side.
 */
export function nodeChecks(deps: {
  workspaces: Pick<WorkspacesRepository, 'listWatched'>;
  watched: (row: WorkspaceRow) => Promise<boolean>;
  alerts: AlertsService;
  nodeStates: NodeStates;
  logger: Logger;
}) {
  const memory: NodeMemory = new Map();
  return scheduledTask('node-checks', { logger: deps.logger, task: checkAllNodes });

  async function checkAllNodes(): Promise<void> {
    const [rows, openAlerts] = await Promise.all([
      deps.workspaces.listWatched(),
      deps.alerts.allActiveFingerprints(),
    ]);
    const hasNodeAlert = (row: WorkspaceRow) =>
      [...(openAlerts.get(row.id) ?? [])].some((fingerprint) => fingerprint.startsWith(PREFIX));
    const due = rows.filter((row) => (row.nodeCount > 1 && !row.previewOf) || hasNodeAlert(row));
    const checked = new Set<string>();
    await Promise.all(
      due.map(async (row) => {
        if (!(await deps.watched(row))) return;
        checked.add(row.id);
        await checkNodes(deps, memory, row);
      }),
    );
    // What is not looked at (stopped, deploying, back to one node) starts afresh when it is again.
    for (const key of memory.keys()) if (!checked.has(key.slice(0, key.indexOf(':')))) memory.delete(key);
  }
}
