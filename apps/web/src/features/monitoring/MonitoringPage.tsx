import type { WorkspaceSummary } from '@slipway/contract';
import { Activity, Info, Trash2 } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useUserWorkspaces } from '../../api/workspaces';
import { EmptyState } from '../../components/EmptyState';
import { LogViewer } from '../../components/logs/LogViewer';
import { PageHeader } from '../../components/PageHeader';
import { Button, Card, CardBody, CardHeader } from '../../components/ui';
import { WorkspacePicker } from '../../components/WorkspacePicker';
import { useWorkspaceActions } from '../../components/workspace/useWorkspaceActions';
import { DeployAgainButton, WorkspaceSettingsLink } from '../../components/workspace/workspaceButtons';
import { formatDate } from '../../lib/dates';
import { parseRepoUrl } from '../../lib/repoUrl';
import { AlertsPanel } from './AlertsPanel';
import { SystemHealthPanel } from './SystemHealthPanel';

/** Workspace monitoring: system health, alerts, logs and details of one workspace. */
export function MonitoringPage() {
  const [params, setParams] = useSearchParams();
  const workspaces = useUserWorkspaces();
  const list = workspaces.data ?? [];
  const selected = params.get('workspace') ?? '';
  const workspace = list.find((item) => item.workspace_name === selected);
  const select = (name: string) => setParams(name ? { workspace: name } : {}, { replace: true });

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <PageHeader
        icon={Activity}
        title="Workspace Monitoring"
        actions={
          <WorkspacePicker
            workspaces={list}
            loading={workspaces.isLoading}
            failed={workspaces.isError}
            selected={workspace ? selected : ''}
            onSelect={select}
            onRetry={() => void workspaces.refetch()}
          />
        }
      />
      {workspaces.isError && (
        <p className="mt-2 text-right text-sm text-red-700">{(workspaces.error as Error).message}</p>
      )}
      {workspace ? (
        <MonitoredWorkspace
          key={workspace.workspace_name}
          workspace={workspace}
          onDeleted={() => select('')}
        />
      ) : (
        !workspaces.isLoading && (
          <EmptyState
            className="mt-10"
            description={
              list.length === 0
                ? 'No workspaces have been created yet.'
                : 'Select a workspace to see its health, alerts and logs.'
            }
          />
        )
      )}
    </div>
  );
}

function MonitoredWorkspace({
  workspace,
  onDeleted,
}: {
  workspace: WorkspaceSummary;
  onDeleted: () => void;
}) {
  const repo = parseRepoUrl(workspace.repo_url);
  const owner = workspace.repo_owner || repo?.owner;
  const repoName = workspace.repo_name || repo?.repo;
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-2">
      <SystemHealthPanel workspace={workspace.workspace_name} />
      <AlertsPanel workspace={workspace.workspace_name} />
      <div className="lg:col-span-2">
        <LogViewer workspace={workspace.workspace_name} canStream={Boolean(owner && repoName)} />
      </div>
      <WorkspaceDetails workspace={workspace} onDeleted={onDeleted} />
    </div>
  );
}

function WorkspaceDetails({ workspace, onDeleted }: { workspace: WorkspaceSummary; onDeleted: () => void }) {
  const actions = useWorkspaceActions(workspace, onDeleted);
  return (
    <Card className="lg:col-span-2">
      <CardHeader title="Workspace details" icon={Info} />
      <CardBody className="flex flex-wrap items-end justify-between gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-500">Workspace</dt>
          <dd className="font-medium text-zinc-900">{workspace.workspace_name}</dd>
          <dt className="text-zinc-500">Repository</dt>
          <dd className="break-all text-zinc-900">{workspace.repo_url || '—'}</dd>
          <dt className="text-zinc-500">Branch</dt>
          <dd className="font-mono text-xs text-zinc-900">{workspace.branch || '—'}</dd>
          <dt className="text-zinc-500">VM size</dt>
          <dd className="text-zinc-900">{workspace.vm_config?.vm_size || '—'}</dd>
          <dt className="text-zinc-500">Created</dt>
          <dd className="text-zinc-900">{formatDate(workspace.created_at)}</dd>
        </dl>
        <div className="flex flex-wrap gap-2">
          <WorkspaceSettingsLink workspace={workspace} />
          <DeployAgainButton actions={actions} />
          <Button
            variant="danger"
            onClick={() => void actions.remove()}
            loading={actions.busy === 'delete'}
            icon={Trash2}
          >
            {actions.busy === 'delete' ? 'Deleting...' : 'Delete Workspace'}
          </Button>
        </div>
      </CardBody>
      {actions.dialog}
    </Card>
  );
}
