import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { deleteAdminVm } from '../../api/admin';
import { useAdminVms } from '../../api/adminQueries';
import { useDialogs } from '../../components/DialogsProvider';
import { Badge, Button } from '../../components/ui';
import { formatDateTime } from './adminFormat';
import { ACTION_FAILURE, deleteVmConfirmText, LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { TabBody, TabSection, tableClasses as t } from './TabSection';
import { useAdminLoad } from './useAdminLoad';

const dash = (value: string | null | undefined) => value || <span className="text-zinc-400">—</span>;

/** Every VM on the platform, with its owner, workspaces and addresses; Delete tears it down. */
export function VmsTab({ notify, onChanged }: AdminTabProps) {
  const dialogs = useDialogs();
  const { data, loading, reload } = useAdminLoad(useAdminVms(), LOAD_FAILURE.vms, notify);
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(name: string) {
    if (!(await dialogs.confirm(deleteVmConfirmText(name), { confirmLabel: 'Delete VM', destructive: true })))
      return;
    setDeleting(name);
    try {
      await deleteAdminVm(name);
      onChanged();
      await reload();
    } catch (error) {
      notify.failure(ACTION_FAILURE.deleteVm, error);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <TabSection
      title="Virtual Machines"
      description={data ? `${data.total_vms} total` : undefined}
      loading={loading}
      onRefresh={reload}
    >
      <TabBody
        loading={loading}
        hasData={data !== undefined}
        empty={data?.vms.length === 0}
        emptyText="No VMs found"
      >
        <div className={t.wrap}>
          <table className={t.table} aria-label="Virtual machines">
            <thead className={t.head}>
              <tr>
                <th className={t.th}>VM</th>
                <th className={t.th}>User</th>
                <th className={t.th}>Workspace</th>
                <th className={t.th}>Status</th>
                <th className={t.th}>Size</th>
                <th className={t.th}>Location</th>
                <th className={t.th}>Private IP</th>
                <th className={t.th}>Public IP</th>
                <th className={t.th}>Created</th>
                <th className={`${t.th} text-right`}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {(data?.vms ?? []).map((vm) => (
                <tr key={vm.vm_name} className={t.row}>
                  <td className={`${t.td} font-mono text-xs text-zinc-900`}>{vm.vm_name}</td>
                  <td className={t.td}>{dash(vm.username)}</td>
                  <td className={t.td}>{dash(vm.workspace_name)}</td>
                  <td className={t.td}>
                    <Badge tone={vm.status === 'VM running' ? 'success' : 'neutral'} dot>
                      {vm.status}
                    </Badge>
                  </td>
                  <td className={t.td}>{vm.size}</td>
                  <td className={t.td}>{dash(vm.location)}</td>
                  <td className={`${t.td} font-mono text-xs`}>{dash(vm.private_ip)}</td>
                  <td className={`${t.td} font-mono text-xs`}>{dash(vm.public_ip)}</td>
                  <td className={t.td}>{formatDateTime(vm.created_at)}</td>
                  <td className={`${t.td} text-right`}>
                    <Button
                      size="sm"
                      variant="danger"
                      icon={<Trash2 className="h-4 w-4" />}
                      loading={deleting === vm.vm_name}
                      onClick={() => remove(vm.vm_name)}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </TabBody>
    </TabSection>
  );
}
