import type { CustomDomain } from '@slipway/contract';
import { RefreshCw } from 'lucide-react';
import { useVerifyCustomDomain } from '../../api/customDomains';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { Alert, Button } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { DNS_INSTRUCTIONS, nextCheckText } from './domainView';

/** What to add at the DNS provider for a domain that is not Active yet, and Verify to check it now. */
export function DnsInstructions({ workspace, domain }: { workspace: string; domain: CustomDomain }) {
  const verify = useVerifyCustomDomain(workspace);
  const label = `DNS records for ${domain.unicode_domain}`;
  const nextCheck = nextCheckText(domain);
  return (
    <section aria-label={label} className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50/70 p-4">
      <p className="text-sm text-zinc-700">{DNS_INSTRUCTIONS}</p>
      <div className="rounded-md border border-zinc-200 bg-white px-3">
        <DataTable
          label={label}
          look="compact"
          rows={domain.records}
          rowKey={(record) => `${record.type} ${record.name} ${record.value}`}
          rowAttributes={(record) => ({ 'data-record-type': record.type })}
          columns={[
            { header: 'Type', cell: (record) => record.type, className: 'font-mono text-xs font-medium' },
            { header: 'Name', cell: (record) => record.name, className: 'font-mono text-xs break-all' },
            {
              header: 'Value',
              className: 'font-mono text-xs break-all',
              cell: (record) => (
                <div className="flex items-center justify-between gap-2">
                  <span data-testid="record-value">{record.value}</span>
                  <CopyButton
                    text={record.value}
                    variant="ghost"
                    size="sm"
                    aria-label={`Copy the ${record.type} value for ${record.name}`}
                  />
                </div>
              ),
            },
          ]}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-zinc-500">
          {domain.checked_at ? `Last checked ${formatDateTime(domain.checked_at)}` : 'Not checked yet'}
          {nextCheck && ` · ${nextCheck}`}
        </p>
        <Button size="sm" icon={RefreshCw} loading={verify.isPending} onClick={() => verify.mutate(domain)}>
          {verify.isPending ? 'Checking…' : 'Verify'}
        </Button>
      </div>
      {verify.error && <Alert tone="error">{verify.error.message}</Alert>}
    </section>
  );
}
