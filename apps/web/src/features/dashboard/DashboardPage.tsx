import { useQueryClient } from '@tanstack/react-query';
import { Activity, LayoutDashboard, RefreshCw, Rocket } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useUserWorkspaces, workspacesKey } from '../../api/workspaces';
import { EmptyState } from '../../components/EmptyState';
import { LogViewer } from '../../components/logs/LogViewer';
import { PageHeader } from '../../components/PageHeader';
import { Button, ButtonLink, LoadingView } from '../../components/ui';
import { WorkspacePicker } from '../../components/WorkspacePicker';
import { useWorkspaceActions } from '../../components/workspace/useWorkspaceActions';
import { DeployAgainButton, WorkspaceSettingsLink } from '../../components/workspace/workspaceButtons';
import { parseRepoUrl } from '../../lib/repoUrl';
import { BackupsCard } from './BackupsCard';
import { LatestDeploymentCard } from './LatestDeploymentCard';
import { ResourceChart } from './LazyResourceChart';
import { NodesCard } from './NodesCard';
import { PreviewsCard } from './PreviewsCard';
import { ServiceReplicasCard } from './ServiceReplicasCard';
import { ServiceStatesCard } from './ServiceStatesCard';
import { LatestErrorCard, VmConfigPanel, WorkspaceActionsCard, WorkspaceStatusCard } from './WorkspaceCards';
import { WorkspacesLoadError } from './WorkspacesLoadError';

/** Spec: the refresh trigger increments after 100 ms. */
const REFRESH_DELAY_MS = 100;

export function DashboardPage() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [refreshKey, setRefreshKey] = useState(0);
  const refreshTimer = useRef<number | undefined>(undefined);
  const workspaces = useUserWorkspaces();
  const list = workspaces.data ?? [];
  const requested = params.get('workspace');
  const selectedName = requested ?? list[0]?.workspace_name ?? '';
  const workspace = list.find((item) => item.workspace_name === selectedName);
  // Refresh mounts the chart and the service states anew.
  const refreshedKey = `${selectedName}-${refreshKey}`;

  const select = (name: string) => setParams(name ? { workspace: name } : {}, { replace: true });
  const actions = useWorkspaceActions(workspace, () => select(''));

  useEffect(() => () => window.clearTimeout(refreshTimer.current), []);
  const refresh = () => {
    window.clearTimeout(refreshTimer.current);
    refreshTimer.current = window.setTimeout(() => {
      setRefreshKey((key) => key + 1);
      void queryClient.invalidateQueries({ queryKey: workspacesKey });
      void queryClient.invalidateQueries({ queryKey: ['monitoring'] });
    }, REFRESH_DELAY_MS);
  };

  if (workspaces.isLoading) return <LoadingView title="Loading workspaces..." />;
  const repo = workspace ? parseRepoUrl(workspace.repo_url) : null;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <PageHeader
        icon={LayoutDashboard}
        title="Workspace Dashboard"
        beside={
          workspaces.isError ? (
            <WorkspacesLoadError
              message={(workspaces.error as Error).message}
              onRetry={() => void workspaces.refetch()}
            />
          ) : (
            <WorkspacePicker workspaces={list} selected={workspace ? selectedName : ''} onSelect={select} />
          )
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={refresh} icon={RefreshCw}>
              Refresh
            </Button>
            {workspace?.repo_url && <DeployAgainButton actions={actions} />}
            {workspace && (
              <>
                <ButtonLink
                  variant="secondary"
                  to={`/monitoring?workspace=${encodeURIComponent(workspace.workspace_name)}`}
                  icon={Activity}
                >
                  Monitoring
                </ButtonLink>
                <WorkspaceSettingsLink workspace={workspace} />
              </>
            )}
          </div>
        }
      />

      {!workspace ? (
        <NoWorkspaceSelected hasWorkspaces={list.length > 0} />
      ) : (
        <div className="mt-6 space-y-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <VmConfigPanel workspace={workspace} />
            <ResourceChart key={refreshedKey} workspace={workspace.workspace_name} />
          </div>
          <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
            <div className="space-y-6">
              <WorkspaceStatusCard workspace={workspace} />
              <ServiceStatesCard key={refreshedKey} workspace={workspace.workspace_name} />
              <ServiceReplicasCard key={`replicas-${refreshedKey}`} workspace={workspace.workspace_name} />
              <NodesCard workspace={workspace.workspace_name} />
              <LatestDeploymentCard workspace={workspace.workspace_name} />
              <BackupsCard workspace={workspace.workspace_name} />
              <PreviewsCard workspace={workspace.workspace_name} />
              <WorkspaceActionsCard busy={actions.busy === 'delete'} onDelete={() => void actions.remove()} />
              <LatestErrorCard workspace={workspace} />
            </div>
            <LogViewer
              workspace={workspace.workspace_name}
              canStream={repo !== null}
              refreshKey={refreshKey}
            />
          </div>
        </div>
      )}
      {actions.dialog}
    </div>
  );
}

function NoWorkspaceSelected({ hasWorkspaces }: { hasWorkspaces: boolean }) {
  return (
    <EmptyState
      className="mt-10"
      icon={LayoutDashboard}
      heading
      title="No Workspace Selected"
      description={
        hasWorkspaces
          ? 'Select a workspace from the sidebar to view details.'
          : 'No workspaces have been created yet.'
      }
    >
      {!hasWorkspaces && (
        <ButtonLink to="/repository-picker" className="mt-6" icon={Rocket}>
          Deploy your first app
        </ButtonLink>
      )}
    </EmptyState>
  );
}
