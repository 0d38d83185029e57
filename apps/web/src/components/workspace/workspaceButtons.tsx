import type { WorkspaceSummary } from '@slipway/contract';
import { Rocket, Settings } from 'lucide-react';
import { Button, ButtonLink } from '../ui';
import type { useWorkspaceActions } from './useWorkspaceActions';

/** Redeploys the workspace from its repository (the dashboard's and the monitoring screen's button). */
export function DeployAgainButton({ actions }: { actions: ReturnType<typeof useWorkspaceActions> }) {
  return (
    <Button onClick={() => void actions.redeploy()} loading={actions.busy === 'redeploy'} icon={Rocket}>
      {actions.busy === 'redeploy' ? 'Deploying...' : 'Deploy Again'}
    </Button>
  );
}

/** To the workspace's settings (the dashboard's and the monitoring screen's link). */
export function WorkspaceSettingsLink({ workspace }: { workspace: WorkspaceSummary }) {
  return (
    <ButtonLink
      variant="secondary"
      to={`/workspace-settings?workspace=${encodeURIComponent(workspace.workspace_name)}`}
      icon={Settings}
    >
      Settings
    </ButtonLink>
  );
}
