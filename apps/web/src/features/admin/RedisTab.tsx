import type { RedisFlushType } from '@slipway/contract';
import { Trash2 } from 'lucide-react';
import { flushRedis } from '../../api/admin';
import { useRedisInfo } from '../../api/adminQueries';
import { useDialogs } from '../../components/DialogsProvider';
import { Alert, Badge, Button, Card } from '../../components/ui';
import { firstInfoLines } from './adminFormat';
import { ACTION_FAILURE, flushConfirmText, LOAD_FAILURE, NOTICE_MS } from './adminMessages';
import type { AdminTabProps } from './adminTabTypes';
import { TabBody, TabSection } from './TabSection';
import { useAdminLoad } from './useAdminLoad';
import { useBusyAction } from './useBusyAction';

const FLUSHES: { type: RedisFlushType; label: string }[] = [
  { type: 'sessions', label: 'Flush Sessions' },
  { type: 'jobs', label: 'Flush Jobs' },
  { type: 'workflows', label: 'Flush Workflows' },
  { type: 'all', label: 'Flush All' },
];

/** Redis Management: connection, key counts by type, the info text, and flushing by type. */
export function RedisTab({ notify, onChanged }: AdminTabProps) {
  const dialogs = useDialogs();
  const { data: info, loading, reload } = useAdminLoad(useRedisInfo(), LOAD_FAILURE.redis, notify);
  const { busy: flushing, run } = useBusyAction(notify);

  async function flush(type: RedisFlushType) {
    const confirmed = await dialogs.confirm(flushConfirmText(type), {
      title: 'Flush Redis data',
      confirmLabel: 'Flush',
      destructive: true,
    });
    if (!confirmed) return;
    await run(type, ACTION_FAILURE.flush, async () => {
      const result = await flushRedis(type);
      notify.notice(result.message, NOTICE_MS.flush);
      onChanged();
      await reload();
    });
  }

  const counts = info
    ? [
        { label: 'Total keys', value: info.total_keys },
        { label: 'Sessions', value: info.key_counts.sessions },
        { label: 'Jobs', value: info.key_counts.jobs },
        { label: 'Workflows', value: info.key_counts.workflows },
        { label: 'Other', value: info.key_counts.other },
      ]
    : [];

  return (
    <TabSection title="Redis Management" loading={loading} onRefresh={reload}>
      <TabBody loading={loading} hasData={info !== undefined} empty={false} emptyText="">
        {info && (
          <div className="space-y-6">
            <div className="flex flex-wrap items-center gap-3">
              <Badge tone={info.connected ? 'success' : 'warning'} dot>
                {info.connected ? 'Connected' : 'Not connected'}
              </Badge>
              {info.connected && <span className="text-sm text-zinc-600">{info.status}</span>}
            </div>
            {!info.connected && (
              <Alert tone="warning" title="Redis is not in use">
                {info.status}. The counts below and the flush buttons act on the same data where it is stored.
              </Alert>
            )}
            <div className="grid gap-3 sm:grid-cols-5">
              {counts.map((count) => (
                <Card
                  key={count.label}
                  className="p-4"
                  data-testid={`redis-count-${count.label.toLowerCase()}`}
                >
                  <p className="text-xs font-medium text-zinc-500">{count.label}</p>
                  <p className="mt-1 text-xl font-semibold text-zinc-900 tabular-nums">{count.value}</p>
                </Card>
              ))}
            </div>
            <div className="flex flex-wrap gap-2">
              {FLUSHES.map(({ type, label }) => (
                <Button
                  key={type}
                  variant={type === 'all' ? 'danger' : 'secondary'}
                  icon={Trash2}
                  loading={flushing === type}
                  disabled={flushing !== null}
                  onClick={() => flush(type)}
                >
                  {label}
                </Button>
              ))}
            </div>
            {info.info && (
              <section aria-label="Redis info">
                <h3 className="mb-2 text-sm font-semibold text-zinc-900">Info</h3>
                <pre
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable value must be reachable and scrollable by keyboard
                  tabIndex={0}
                  className="overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-5 text-zinc-100"
                >
                  {firstInfoLines(info.info).join('\n')}
                </pre>
              </section>
            )}
          </div>
        )}
      </TabBody>
    </TabSection>
  );
}
