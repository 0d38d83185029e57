import type { WorkspaceNode } from '@slipway/contract';
import { StatusBadge } from '../StatusBadge';
import { nodeName, nodeStatus } from './nodeView';

/** Each node of a workspace with its state, why it is not ready, and whether it leaves at the next deployment. */
export function NodeStateList({ nodes }: { nodes: WorkspaceNode[] }) {
  return (
    <ul className="space-y-3 text-sm" aria-label="Nodes">
      {nodes.map((node) => (
        <li
          key={node.index}
          className="flex flex-wrap items-start justify-between gap-2"
          data-testid={`node-${node.index}`}
        >
          <span className="font-medium text-zinc-900">{nodeName(node)}</span>
          {/* Badge and its cause both at the row's end, as a ready node's badge alone is. */}
          <div className="text-right">
            <StatusBadge
              status={nodeStatus(node)}
              cause={node.message}
              causeTone={node.state === 'lost' ? 'danger' : 'plain'}
            >
              {node.leaving && <p className="text-xs text-zinc-500">Released at the next deployment.</p>}
            </StatusBadge>
          </div>
        </li>
      ))}
    </ul>
  );
}
