import type { WorkspaceNodes } from '@slipway/contract';
import { Activity, Network } from 'lucide-react';
import { useSetWorkspaceNodes, useWorkspaceNodes } from '../../api/nodes';
import { AsyncSection } from '../../components/AsyncSection';
import { NodeStateList } from '../../components/nodes/NodeStateList';
import { SettingsCard, SettingsForm } from '../../components/settings/SettingsCard';
import { settingsLoadError } from '../../components/settings/SettingsLoadError';
import type { SettingsTab } from '../../components/settings/settingsTab';
import { useSettingsForm } from '../../components/settings/useSettingsForm';
import { Card, CardBody, CardHeader, NumberInput } from '../../components/ui';
import { NODES_FORM } from './nodesForm';

/** Workspace Settings → Nodes: how many VMs the workspace runs on, and each one's state now (read every 5 s). */
export function NodesTab({ workspace }: { workspace: string }) {
  const nodes = useWorkspaceNodes(workspace);
  return (
    <AsyncSection query={nodes} failed={settingsLoadError}>
      {(saved) => (
        <div className="space-y-4">
          <NodeCountCard workspace={workspace} saved={saved} />
          <Card>
            <CardHeader title="Each node now" icon={Activity} />
            <CardBody>
              <NodeStateList nodes={saved.nodes} />
            </CardBody>
          </Card>
        </div>
      )}
    </AsyncSection>
  );
}

export const nodesTab: SettingsTab = { id: 'nodes', label: 'Nodes', icon: Network, Panel: NodesTab };

function NodeCountCard({ workspace, saved }: { workspace: string; saved: WorkspaceNodes }) {
  const { numberField, state } = useSettingsForm(NODES_FORM, saved, useSetWorkspaceNodes(workspace));
  return (
    <SettingsCard
      title="Nodes"
      icon={Network}
      description="How many VMs of the workspace's size it runs on. Each node is billed at the VM size's price; a node that stops answering shows here and on the dashboard, and alerts you."
    >
      <SettingsForm
        state={state}
        submitLabel="Save Nodes"
        savedText="Nodes saved. The next deployment runs the workspace on them."
      >
        <NumberInput
          label="Nodes"
          hint="1 to 5. Takes effect at the next deployment; a preview stays on one node."
          className="sm:w-40"
          {...numberField('nodes')}
        />
      </SettingsForm>
    </SettingsCard>
  );
}
