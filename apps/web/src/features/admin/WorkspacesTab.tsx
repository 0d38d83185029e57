import { useAdminWorkspaces } from '../../api/adminQueries';
import { Badge } from '../../components/ui';
import { formatDateTime, safeHref, VERSIONS_SHOWN } from './adminFormat';
import { LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { TabBody, TabSection, tableClasses as t } from './TabSection';
import { useAdminLoad } from './useAdminLoad';

/** Every workspace: owner, service URLs, image, log watcher, and its latest deployed versions. */
export function WorkspacesTab({ notify }: AdminTabProps) {
  const { data, loading, reload } = useAdminLoad(useAdminWorkspaces(), LOAD_FAILURE.workspaces, notify);

  return (
    <TabSection
      title="Workspaces"
      description={data ? `${data.total_workspaces} total` : undefined}
      loading={loading}
      onRefresh={reload}
    >
      <TabBody
        loading={loading}
        hasData={data !== undefined}
        empty={data?.workspaces.length === 0}
        emptyText="No workspaces found"
      >
        <div className={t.wrap}>
          <table className={t.table} aria-label="Workspaces">
            <thead className={t.head}>
              <tr>
                <th className={t.th}>Workspace</th>
                <th className={t.th}>User</th>
                <th className={t.th}>Services</th>
                <th className={t.th}>Image</th>
                <th className={t.th}>Log watcher</th>
                <th className={t.th}>Deployed versions</th>
                <th className={t.th}>Created</th>
                <th className={t.th}>Updated</th>
              </tr>
            </thead>
            <tbody>
              {(data?.workspaces ?? []).map((ws) => {
                const urls = Object.entries(ws.service_urls ?? {});
                const versions = ws.deployed_versions ?? [];
                return (
                  <tr key={`${ws.username}/${ws.workspace_name}`} className={t.row}>
                    <td className={`${t.td} font-medium text-zinc-900`}>{ws.workspace_name}</td>
                    <td className={t.td}>{ws.username}</td>
                    <td className={t.td}>
                      {urls.length === 0 && <span className="text-zinc-400">—</span>}
                      {urls.map(([service, url]) => (
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
                      ))}
                    </td>
                    <td className={`${t.td} font-mono text-xs break-all`}>{ws.docker_image_name ?? '—'}</td>
                    <td className={t.td}>
                      <Badge tone={ws.log_watcher_status === 'active' ? 'success' : 'neutral'} dot>
                        {ws.log_watcher_status}
                      </Badge>
                    </td>
                    <td className={t.td}>
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
                    </td>
                    <td className={t.td}>{formatDateTime(ws.created_at)}</td>
                    <td className={t.td}>{formatDateTime(ws.updated_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </TabBody>
    </TabSection>
  );
}
