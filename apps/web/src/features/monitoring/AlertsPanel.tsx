import type { AlertView } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useState } from 'react';
import {
  ALERT_STATISTICS_DAYS,
  acknowledgeAlert,
  alertKeys,
  RECENT_ALERT_HOURS,
  resolveAlert,
  useActiveAlerts,
  useAlertStatistics,
  useRecentAlerts,
} from '../../api/alerts';
import { Alert, Card, CardHeader, Spinner, TabButton } from '../../components/ui';
import { AlertItem } from './AlertItem';
import { alertRates, hasStatistics, splitRecent } from './alertStats';

type Tab = 'active' | 'recent' | 'statistics';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'active', label: 'Active' },
  { id: 'recent', label: 'Recent' },
  { id: 'statistics', label: 'Statistics' },
];

export function AlertsPanel({ workspace }: { workspace: string }) {
  const [tab, setTab] = useState<Tab>('active');
  const [running, setRunning] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const active = useActiveAlerts(workspace);
  const recent = useRecentAlerts(workspace, tab === 'recent');
  const statistics = useAlertStatistics(workspace, tab === 'statistics');

  const act = async (alert: AlertView, action: 'acknowledge' | 'resolve') => {
    setRunning(alert.alert_id);
    setActionError(null);
    try {
      await (action === 'acknowledge' ? acknowledgeAlert(alert.alert_id) : resolveAlert(alert.alert_id));
      await queryClient.invalidateQueries({ queryKey: alertKeys.all(workspace) });
    } catch {
      setActionError(action === 'acknowledge' ? 'Failed to acknowledge alert' : 'Failed to resolve alert');
    } finally {
      setRunning(null);
    }
  };

  const current = tab === 'active' ? active : tab === 'recent' ? recent : statistics;

  return (
    <Card>
      <CardHeader
        title="Alerts"
        icon={Bell}
        description={
          tab === 'recent'
            ? `Last ${RECENT_ALERT_HOURS} hours`
            : tab === 'statistics'
              ? `Last ${ALERT_STATISTICS_DAYS} days`
              : undefined
        }
      />
      <div role="tablist" aria-label="Alerts" className="flex gap-1 border-b border-zinc-100 px-6">
        {TABS.map((item) => (
          <TabButton
            key={item.id}
            selected={tab === item.id}
            onClick={() => setTab(item.id)}
            className="px-3 py-2"
          >
            {item.label}
            {item.id === 'active' && active.data && active.data.length > 0 && (
              <span className="ml-1.5 rounded-full bg-red-100 px-1.5 text-xs text-red-700">
                {active.data.length}
              </span>
            )}
          </TabButton>
        ))}
      </div>
      <div role="tabpanel" className="space-y-3 px-6 py-5">
        {actionError && <Alert tone="error">{actionError}</Alert>}
        {current.isLoading ? (
          <div className="flex justify-center py-8">
            <Spinner className="text-accent-600" />
          </div>
        ) : current.isError ? (
          <Alert tone="error">The alerts could not be loaded.</Alert>
        ) : tab === 'active' ? (
          <AlertList
            alerts={active.data ?? []}
            empty="No Active Alerts"
            actions
            running={running}
            onAct={(alert, action) => void act(alert, action)}
          />
        ) : tab === 'recent' ? (
          <RecentAlerts alerts={recent.data ?? []} />
        ) : hasStatistics(statistics.data) ? (
          <StatisticsView stats={statistics.data} />
        ) : (
          <Empty text="No Statistics Available" />
        )}
      </div>
    </Card>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="py-8 text-center text-sm font-medium text-zinc-600">{text}</p>;
}

function AlertList({
  alerts,
  empty,
  actions = false,
  running = null,
  onAct,
}: {
  alerts: AlertView[];
  empty: string;
  actions?: boolean;
  running?: string | null;
  onAct?: (alert: AlertView, action: 'acknowledge' | 'resolve') => void;
}) {
  if (alerts.length === 0) return <Empty text={empty} />;
  return (
    <ul className="space-y-3">
      {alerts.map((alert) => (
        <AlertItem
          key={alert.alert_id}
          alert={alert}
          actions={actions}
          running={running === alert.alert_id}
          onAct={onAct}
        />
      ))}
    </ul>
  );
}

function RecentAlerts({ alerts }: { alerts: AlertView[] }) {
  const { shown, more } = splitRecent(alerts);
  return (
    <>
      <AlertList alerts={shown} empty="No Recent Alerts" />
      {more > 0 && (
        <p className="text-center text-sm text-zinc-500">
          and {more} more in the last {RECENT_ALERT_HOURS} hours
        </p>
      )}
    </>
  );
}

function StatisticsView({ stats }: { stats: Parameters<typeof alertRates>[0] }) {
  const rates = alertRates(stats);
  const items = [
    ['Total alerts', String(stats.total_alerts)],
    ['Active', String(stats.active_alerts)],
    ['Resolved', String(stats.resolved_alerts)],
    ['Avg response time', `${rates.avgResponseMinutes} min`],
    ['Resolution rate', `${rates.resolutionRate}%`],
    ['Active rate', `${rates.activeRate}%`],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2">
          <dt className="text-xs text-zinc-500">{label}</dt>
          <dd className="text-lg font-semibold text-zinc-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
