import type { NodeState, WorkspaceNode } from '@slipway/contract';
import type { Status } from '../StatusBadge';
import type { BadgeTone } from '../ui';

/** Green when it answers, red when lost, amber when drained, grey until its VM is made. */
const NODE_STATES = {
  ready: { label: 'Ready', tone: 'success' },
  lost: { label: 'Lost', tone: 'danger' },
  drained: { label: 'Drained', tone: 'warning' },
  pending: { label: 'Pending', tone: 'neutral' },
} as const satisfies Record<NodeState, { label: string; tone: BadgeTone }>;

/** A node's badge: its state; none of them moves by itself (a lost node is looked at again, not waited on). */
export const nodeStatus = (node: WorkspaceNode): Status => ({ ...NODE_STATES[node.state], moving: false });

/** "Node 2 · manager", "Node 3": what the list calls a node. */
export const nodeName = (node: WorkspaceNode) => `Node ${node.index}${node.role ? ` · ${node.role}` : ''}`;
