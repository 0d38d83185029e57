import type { Invoice } from '@slipway/contract';
import { ArrowLeft, FileText, Hourglass } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useInvoices } from '../../api/invoices';
import { useSubscription } from '../../api/subscriptions';
import {
  formatUsd,
  invoiceTone,
  shortInvoiceId,
  statusLabel,
  subscriptionTone,
  summarizeInvoices,
} from '../../components/billingFormat';
import { DataTable } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Alert, Badge, Card, LoadingView } from '../../components/ui';
import { formatDate, formatDateTime } from '../../lib/dates';

/** /invoices (every invoice of the user) and /invoices/{subscriptionId} (one subscription's). */
export function InvoicesPage() {
  const { subscriptionId } = useParams();
  const invoices = useInvoices(subscriptionId);
  const subscription = useSubscription(subscriptionId);
  useEffect(() => {
    // Spec: a failed subscription detail is only logged.
    if (subscription.error) console.error('Failed to fetch subscription', subscription.error);
  }, [subscription.error]);

  if (invoices.isLoading) return <LoadingView title="Loading invoices..." />;
  const data = invoices.data;
  const list = data?.invoices ?? [];
  const summary = summarizeInvoices(list);
  const detail = subscription.data;

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <Link
        to="/subscriptions"
        className="inline-flex items-center gap-1 text-sm text-zinc-600 hover:text-zinc-900"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Subscriptions
      </Link>
      <PageHeader
        className="mt-3"
        icon={FileText}
        title={subscriptionId ? 'Subscription Invoices' : 'Invoice History'}
      />

      {detail && (
        <Card className="mt-6 flex flex-wrap gap-x-8 gap-y-2 p-5 text-sm">
          <div>
            <p className="text-zinc-500">Plan</p>
            <p className="font-medium text-zinc-900">{detail.plan?.name ?? detail.plan_name}</p>
          </div>
          <div>
            <p className="text-zinc-500">VM</p>
            <p className="font-mono text-xs text-zinc-900">{detail.vm_id ?? '—'}</p>
          </div>
          <div>
            <p className="text-zinc-500">Status</p>
            <Badge tone={subscriptionTone(detail.status)} dot>
              {statusLabel(detail.status)}
            </Badge>
          </div>
        </Card>
      )}

      <div className="mt-6 space-y-4">
        {invoices.isError && (
          <Alert tone="error">
            {subscriptionId ? 'Failed to fetch subscription invoices' : 'Failed to fetch invoices'}
          </Alert>
        )}
        {data?.is_trial && list.length === 0 ? (
          <div className="flex gap-3 rounded-xl border border-sky-200 bg-sky-50 p-5" role="status">
            <Hourglass className="h-6 w-6 shrink-0 text-sky-600" aria-hidden="true" />
            <div>
              <p className="font-semibold text-sky-900">Trial Period Active</p>
              {data.message && <p className="mt-1 text-sm text-sky-900">{data.message}</p>}
              {data.trial_end_date && (
                <p className="mt-1 text-sm text-sky-800">Trial ends {formatDate(data.trial_end_date)}</p>
              )}
            </div>
          </div>
        ) : (
          !invoices.isError && list.length === 0 && <EmptyState description="No invoices found." />
        )}
        {list.length > 0 && (
          <>
            <InvoiceTable invoices={list} />
            <dl className="grid gap-3 sm:grid-cols-3">
              <SummaryItem label="Total invoices" value={String(summary.total)} />
              <SummaryItem label="Total paid" value={formatUsd(summary.paidAmount)} />
              <SummaryItem label="Paid invoices" value={String(summary.paidCount)} />
            </dl>
          </>
        )}
      </div>
    </div>
  );
}

function SummaryItem({ label, value }: { label: string; value: string }) {
  return (
    <Card className="px-4 py-3">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-lg font-semibold text-zinc-900">{value}</dd>
    </Card>
  );
}

function InvoiceTable({ invoices }: { invoices: Invoice[] }) {
  return (
    <DataTable
      look="card"
      rows={invoices}
      rowKey={(invoice) => invoice.invoice_id}
      columns={[
        {
          header: 'Invoice',
          className: 'font-mono text-xs',
          cell: (invoice) => <span title={invoice.invoice_id}>{shortInvoiceId(invoice.invoice_id)}</span>,
        },
        { header: 'Amount', className: 'font-medium', cell: (invoice) => formatUsd(invoice.amount_usd) },
        {
          header: 'Status',
          cell: (invoice) => <Badge tone={invoiceTone(invoice.status)}>{statusLabel(invoice.status)}</Badge>,
        },
        {
          header: 'Period',
          className: 'whitespace-nowrap',
          cell: (invoice) => `${formatDate(invoice.period_start)} - ${formatDate(invoice.period_end)}`,
        },
        {
          header: 'Issued',
          className: 'whitespace-nowrap',
          cell: (invoice) => formatDateTime(invoice.issued_at),
        },
        {
          header: 'Paid',
          className: 'whitespace-nowrap',
          cell: (invoice) => (invoice.paid_at ? formatDateTime(invoice.paid_at) : '-'),
        },
      ]}
    />
  );
}
