import type { SubscriptionSummary } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, FileText, XCircle } from 'lucide-react';
import { useState } from 'react';
import { cancelSubscription, subscriptionsKey, useSubscriptions } from '../../api/subscriptions';
import { canCancel, statusLabel, subscriptionTone } from '../../components/billingFormat';
import { useDialogs } from '../../components/DialogsProvider';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { Alert, Badge, Button, ButtonLink, Card, LoadingView } from '../../components/ui';
import { formatDate } from '../../lib/dates';

export function SubscriptionsPage() {
  const queryClient = useQueryClient();
  const dialogs = useDialogs();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const subscriptions = useSubscriptions();

  const cancel = async (subscription: SubscriptionSummary) => {
    const ok = await dialogs.confirm(
      `Cancel the ${subscription.plan_name} subscription? The workspace's VM stops once it is cancelled.`,
      { title: 'Cancel subscription', confirmLabel: 'Cancel Subscription', destructive: true },
    );
    if (!ok) return;
    setCancelling(subscription.subscription_id);
    setCancelError(null);
    try {
      await cancelSubscription(
        subscription.subscription_id,
        'Cancelled by the user from Subscription Management',
      );
    } catch {
      setCancelError('Failed to cancel subscription');
    } finally {
      setCancelling(null);
      await queryClient.invalidateQueries({ queryKey: subscriptionsKey });
    }
  };

  if (subscriptions.isLoading) return <LoadingView title="Loading subscriptions..." />;
  const list = subscriptions.data ?? [];

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <PageHeader
        icon={CreditCard}
        title="Subscription Management"
        actions={
          <ButtonLink to="/invoices" variant="secondary" icon={FileText}>
            Invoice History
          </ButtonLink>
        }
      />
      <div className="mt-6 space-y-4">
        {subscriptions.isError && <Alert tone="error">Failed to fetch subscriptions</Alert>}
        {cancelError && <Alert tone="error">{cancelError}</Alert>}
        {!subscriptions.isError && list.length === 0 && (
          <EmptyState description="No subscriptions found. Create your first subscription to get started!" />
        )}
        {list.map((subscription) => (
          <Card key={subscription.subscription_id} className="p-5" data-testid="subscription">
            <div className="flex flex-wrap items-start justify-between gap-4">
              <div>
                <div className="flex items-center gap-2">
                  <h2 className="font-semibold text-zinc-900">
                    {subscription.plan_name}
                    {subscription.nodes > 1 && ` × ${subscription.nodes} nodes`}
                  </h2>
                  <Badge tone={subscriptionTone(subscription.status)} dot>
                    {statusLabel(subscription.status)}
                  </Badge>
                </div>
                <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
                  <dt className="text-zinc-500">VM</dt>
                  <dd className="font-mono text-xs text-zinc-900">{subscription.vm_id ?? '—'}</dd>
                  <dt className="text-zinc-500">Plan code</dt>
                  <dd className="font-mono text-xs text-zinc-900">{subscription.plan_code}</dd>
                  <dt className="text-zinc-500">Trial ends</dt>
                  <dd className="text-zinc-900">{formatDate(subscription.trial_end)}</dd>
                  <dt className="text-zinc-500">Next renewal</dt>
                  <dd className="text-zinc-900">{formatDate(subscription.next_renewal)}</dd>
                  <dt className="text-zinc-500">Created</dt>
                  <dd className="text-zinc-900">{formatDate(subscription.created_at)}</dd>
                </dl>
              </div>
              <div className="flex gap-2">
                <ButtonLink
                  size="sm"
                  variant="secondary"
                  to={`/invoices/${encodeURIComponent(subscription.subscription_id)}`}
                  icon={FileText}
                >
                  View Invoices
                </ButtonLink>
                {canCancel(subscription.status) && (
                  <Button
                    size="sm"
                    variant="danger"
                    loading={cancelling === subscription.subscription_id}
                    onClick={() => void cancel(subscription)}
                    icon={XCircle}
                  >
                    Cancel
                  </Button>
                )}
              </div>
            </div>
          </Card>
        ))}
      </div>
    </div>
  );
}
