import type { WorkspaceNode } from '@slipway/contract';
import type { Logger } from 'pino';
import { scheduledTask } from '../scheduling/scheduledTask.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { AlertsService } from './alertsService.js';
import type { Failure } from './healthChecks.js';

/** The workspace's nodes now (nodes/ reads them: each engine's ping and the swarm's own view). */
export type NodeStates = (workspace: WorkspaceRow) => Promise<WorkspaceNode[]>;

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

/**
 * One look at a workspace's nodes: a node newly lost raises its alert (sent once: `raise` merges a failure whose
 * alert is open), a node back resolves it. A node beyond the count is on its way out and alerts nothing; its
 * alert, if open, resolves.
 */
export async function checkNodes(
  deps: { alerts: AlertsService; nodeStates: NodeStates },
  row: WorkspaceRow,
): Promise<void> {
  const [nodes, active] = await Promise.all([deps.nodeStates(row), deps.alerts.activeFingerprints(row.id)]);
  const open = [...active].filter((fingerprint) => fingerprint.startsWith(PREFIX));
  const lost = new Map(
    nodes
      .filter((node) => node.state === 'lost' && !node.leaving)
      .map((node) => [nodeLostFingerprint(node.index), node]),
  );
  for (const [fingerprint, node] of lost) {
    if (!open.includes(fingerprint)) await deps.alerts.raise(row, nodeLostFailure(node));
  }
  for (const fingerprint of open) {
    if (!lost.has(fingerprint)) await deps.alerts.recover(row, fingerprint);
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
  return scheduledTask('node-checks', { logger: deps.logger, task: checkAllNodes });

  async function checkAllNodes(): Promise<void> {
    const [rows, openAlerts] = await Promise.all([
      deps.workspaces.listWatched(),
      deps.alerts.allActiveFingerprints(),
    ]);
    const hasNodeAlert = (row: WorkspaceRow) =>
      [...(openAlerts.get(row.id) ?? [])].some((fingerprint) => fingerprint.startsWith(PREFIX));
    const due = rows.filter((row) => (row.nodeCount > 1 && !row.previewOf) || hasNodeAlert(row));
    await Promise.all(
      due.map(async (row) => {
        if (await deps.watched(row)) await checkNodes(deps, row);
      }),
    );
  }
}
