import { useAuditLog } from '../../api/adminQueries';
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { auditDetailSummary } from './adminFormat';
import { LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { ListSection } from './TabSection';
import { useAdminLoad } from './useAdminLoad';

/** Who did what and when: API tokens created, revoked and refused, impersonation links; newest first. */
export function AuditLogTab({ notify }: AdminTabProps) {
  const load = useAdminLoad(useAuditLog(), LOAD_FAILURE.auditLog, notify);
  const entries = load.data;

  return (
    <ListSection
      title="Audit Log"
      description={entries ? `The newest ${entries.length} entries, newest first` : undefined}
      load={load}
      rows={entries}
      emptyText="No audit entries yet"
    >
      <DataTable
        label="Audit log"
        rows={entries ?? []}
        rowKey={(entry) => String(entry.id)}
        rowAttributes={(entry) => ({ 'data-action': entry.action })}
        columns={[
          { header: 'Time', cell: (entry) => formatDateTime(entry.at), className: 'whitespace-nowrap' },
          { header: 'Actor', cell: (entry) => entry.actor, className: 'font-medium text-zinc-900' },
          {
            header: 'Action',
            cell: (entry) => (
              <Badge tone={entry.action.endsWith('.refused') ? 'warning' : 'neutral'}>{entry.action}</Badge>
            ),
          },
          {
            header: 'Target',
            cell: (entry) => entry.target ?? '—',
            className: 'font-mono text-xs break-all',
          },
          {
            header: 'Detail',
            cell: (entry) => (
              <span title={JSON.stringify(entry.detail)}>{auditDetailSummary(entry.detail) || '—'}</span>
            ),
            className: 'text-xs break-words',
          },
        ]}
      />
    </ListSection>
  );
}
