import type { CustomDomain } from '@slipway/contract';
import { Trash2 } from 'lucide-react';
import { useRemoveCustomDomain } from '../../api/customDomains';
import { actionsColumn, DataTable } from '../../components/DataTable';
import { useDialogs } from '../../components/DialogsProvider';
import { RowButton } from '../../components/RowButton';
import { Alert } from '../../components/ui';
import { DnsInstructions } from './DnsInstructions';
import { DomainName } from './DomainName';
import { DomainStatus } from './DomainStatus';
import { needsDnsRecords, removeQuestion } from './domainView';

/** One row per domain; under each one that is not Active, its DNS records and Verify. */
export function DomainTable({ workspace, domains }: { workspace: string; domains: CustomDomain[] }) {
  const dialogs = useDialogs();
  const remove = useRemoveCustomDomain(workspace);

  async function confirmRemove(domain: CustomDomain) {
    const ok = await dialogs.confirm(removeQuestion(domain), {
      title: 'Remove domain',
      confirmLabel: 'Remove',
      destructive: true,
    });
    if (ok) remove.mutate(domain);
  }

  return (
    <div className="space-y-3">
      {remove.error && <Alert tone="error">{remove.error.message}</Alert>}
      <DataTable
        label="Domains"
        look="tall"
        rows={domains}
        rowKey={(domain) => domain.id}
        rowAttributes={(domain) => ({ 'data-domain': domain.domain, 'data-status': domain.status })}
        rowDetail={(domain) =>
          needsDnsRecords(domain) ? <DnsInstructions workspace={workspace} domain={domain} /> : null
        }
        columns={[
          { header: 'Domain', cell: (domain) => <DomainName domain={domain} /> },
          { header: 'Service', cell: (domain) => domain.service, className: 'text-zinc-700' },
          {
            header: 'Status',
            cell: (domain) => <DomainStatus domain={domain} />,
          },
          actionsColumn((domain: CustomDomain) => (
            <RowButton
              label="Remove"
              of={domain.unicode_domain}
              icon={Trash2}
              busy={remove.isPending && remove.variables?.id === domain.id}
              onClick={() => void confirmRemove(domain)}
            />
          )),
        ]}
      />
    </div>
  );
}
