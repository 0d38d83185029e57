import type { AdminWorkspace } from '@slipway/contract';
import { useAdminWorkspaces } from '../../api/adminQueries';
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { safeHref, VERSIONS_SHOWN } from './adminFormat';
import { LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { ListSection } from './TabSection';
import { useAdminLoad } from './useAdminLoad';

/** Every workspace: owner, service URLs, image, log watcher, and its latest deployed versions. */
export function WorkspacesTab({ notify }: AdminTabProps) {
  const load = useAdminLoad(useAdminWorkspaces(), LOAD_FAILURE.workspaces, notify);
  const { data } = load;

  return (
    <ListSection
      title="Workspaces"
      description={data ? `${data.total_workspaces} total` : undefined}
      load={load}
      rows={data?.workspaces}
      emptyText="No workspaces found"
    >
      <DataTable
        label="Workspaces"
        rows={data?.workspaces ?? []}
        rowKey={(ws) => `${ws.username}/${ws.workspace_name}`}
        columns={[
          { header: 'Workspace', cell: (ws) => ws.workspace_name, className: 'font-medium text-zinc-900' },
          { header: 'User', cell: (ws) => ws.username },
          { header: 'Services', cell: (ws) => <ServiceUrls urls={ws.service_urls} /> },
          {
            header: 'Image',
            cell: (ws) => ws.docker_image_name ?? '—',
            className: 'font-mono text-xs break-all',
          },
          {
            header: 'Log watcher',
            cell: (ws) => (
              <Badge tone={ws.log_watcher_status === 'active' ? 'success' : 'neutral'} dot>
                {ws.log_watcher_status}
              </Badge>
            ),
          },
          {
            header: 'Deployed versions',
            cell: (ws) => <DeployedVersions versions={ws.deployed_versions ?? []} />,
          },
          { header: 'Created', cell: (ws) => formatDateTime(ws.created_at) },
          { header: 'Updated', cell: (ws) => formatDateTime(ws.updated_at) },
        ]}
      />
    </ListSection>
  );
}

function ServiceUrls({ urls }: { urls: AdminWorkspace['service_urls'] }) {
  const entries = Object.entries(urls ?? {});
  if (entries.length === 0) return <span className="text-zinc-400">—</span>;
  return entries.map(([service, url]) => (
    <p key={service} className="text-xs">
      <span className="font-medium">{service}:</span>{' '}
      <a
        href={safeHref(url)}
        target="_blank"
        rel="noreferrer"
        className="break-all text-accent-700 underline"
      >
        {url}
      </a>
    </p>
  ));
}

function DeployedVersions({ versions }: { versions: NonNullable<AdminWorkspace['deployed_versions']> }) {
  return (
    <>
      {versions.length === 0 && <span className="text-zinc-400">None</span>}
      {versions.slice(0, VERSIONS_SHOWN).map((version) => (
        <p key={version.deployment_id} className="text-xs">
          <span className="font-mono">{version.commit_sha?.slice(0, 7) ?? 'unknown'}</span> on{' '}
          {version.branch} · {formatDateTime(version.deployed_at)}
        </p>
      ))}
      {versions.length > VERSIONS_SHOWN && (
        <p className="text-xs text-zinc-400">+{versions.length - VERSIONS_SHOWN} more</p>
      )}
    </>
  );
}
