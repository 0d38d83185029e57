import type { AdminVm } from '@slipway/contract';
import { deleteAdminVm } from '../../api/admin';
import { useAdminVms } from '../../api/adminQueries';
import { DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { Badge } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { ACTION_FAILURE, deleteVmConfirmText, LOAD_FAILURE } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { removeColumn } from './RemoveColumn';
import { ListSection } from './TabSection';
import { useAdminLoad } from './useAdminLoad';
import { useBusyAction } from './useBusyAction';

const dash = (value: string | null | undefined) => value || <span className="text-zinc-400">—</span>;

/** Every VM on the platform, with its owner, workspaces and addresses; Delete tears it down. */
export function VmsTab({ notify, onChanged }: AdminTabProps) {
  const dialogs = useDialogs();
  const load = useAdminLoad(useAdminVms(), LOAD_FAILURE.vms, notify);
  const { data } = load;
  const { busy, run } = useBusyAction(notify);

  async function remove(name: string) {
    if (!(await dialogs.confirm(deleteVmConfirmText(name), { confirmLabel: 'Delete VM', destructive: true })))
      return;
    await run(name, ACTION_FAILURE.deleteVm, async () => {
      await deleteAdminVm(name);
      onChanged();
      await load.reload();
    });
  }

  return (
    <ListSection
      title="Virtual Machines"
      description={data ? `${data.total_vms} total` : undefined}
      load={load}
      rows={data?.vms}
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
          { header: 'Node', cell: (vm) => dash(vm.node === null ? null : String(vm.node)) },
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
          removeColumn((vm: AdminVm) => ({
            text: 'Delete',
            variant: 'danger',
            loading: busy === vm.vm_name,
            onClick: () => remove(vm.vm_name),
          })),
        ]}
      />
    </ListSection>
  );
}
