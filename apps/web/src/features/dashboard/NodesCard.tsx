import type { WorkspaceNodes } from '@slipway/contract';
import { Network } from 'lucide-react';
import { useWorkspaceNodes } from '../../api/nodes';
import { NodeStateList } from '../../components/nodes/NodeStateList';
import { countOf } from '../../lib/plural';
import { ManagedQueryCard } from './ManagedCard';

/** "Runs on 3 nodes." — or, while the next deployment has nodes to add or release, what it will run on. */
function nodeCountText(data: WorkspaceNodes): string {
  const changing = data.nodes.some((node) => node.state === 'pending' || node.leaving);
  const count = countOf(data.node_count, { one: 'node' });
  return changing ? `Runs on ${count} from the next deployment on.` : `Runs on ${count}.`;
}

/** The workspace's nodes (VMs) with each one's state now, read every 5 s: a lost node shows within seconds. */
export function NodesCard({ workspace }: { workspace: string }) {
  return (
    <ManagedQueryCard
      title="Nodes"
      icon={Network}
      workspace={workspace}
      tab="nodes"
      query={useWorkspaceNodes(workspace)}
      failedText="The nodes could not be read."
      testId="dashboard-nodes"
    >
      {(data) => (
        <>
          <p className="text-zinc-600">{nodeCountText(data)}</p>
          <NodeStateList nodes={data.nodes} />
        </>
      )}
    </ManagedQueryCard>
  );
}
