import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { deleteAdminVm } from '../../api/admin';
import { useAdminVms } from '../../api/adminQueries';
import { DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { Badge, Button } from '../../components/ui';
import { formatDateTime } from './adminFormat';
import { ACTION_FAILURE, deleteVmConfirmText, LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { TabBody, TabSection } from './TabSection';
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
        <DataTable
          label="Virtual machines"
          rows={data?.vms ?? []}
          rowKey={(vm) => vm.vm_name}
          columns={[
            { header: 'VM', cell: (vm) => vm.vm_name, className: 'font-mono text-xs text-zinc-900' },
            { header: 'User', cell: (vm) => dash(vm.username) },
            { header: 'Workspace', cell: (vm) => dash(vm.workspace_name) },
            {
              header: 'Status',
              cell: (vm) => (
                <Badge tone={vm.status === 'VM running' ? 'success' : 'neutral'} dot>
                  {vm.status}
                </Badge>
              ),
            },
            { header: 'Size', cell: (vm) => vm.size },
            { header: 'Location', cell: (vm) => dash(vm.location) },
            { header: 'Private IP', cell: (vm) => dash(vm.private_ip), className: 'font-mono text-xs' },
            { header: 'Public IP', cell: (vm) => dash(vm.public_ip), className: 'font-mono text-xs' },
            { header: 'Created', cell: (vm) => formatDateTime(vm.created_at) },
            {
              header: 'Actions',
              alignEnd: true,
              cell: (vm) => (
                <Button
                  size="sm"
                  variant="danger"
                  icon={<Trash2 className="h-4 w-4" />}
                  loading={deleting === vm.vm_name}
                  onClick={() => remove(vm.vm_name)}
                >
                  Delete
                </Button>
              ),
            },
          ]}
        />
      </TabBody>
    </TabSection>
  );
}
