import { LogOut, Shield } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { adminLogout } from '../../api/admin';
import { useAdminStats } from '../../api/adminQueries';
import { httpStatus } from '../../api/errors';
import { Button, cn, IconTile, TabButton } from '../../components/ui';
import { AuditLogTab } from './AuditLogTab';
import { failureText, LOAD_FAILURE } from './adminMessages';
import type { AdminNotifier, AdminTabProps } from './adminTabTypes';
import { MonitoringTab } from './monitoring/MonitoringTab';
import { type Banner, NoticeBanner } from './NoticeBanner';
import { RedisTab } from './RedisTab';
import { StatCards } from './StatCards';
import { SystemLogsTab } from './SystemLogsTab';
import { useAdminLoad } from './useAdminLoad';
import { UsersTab } from './users/UsersTab';
import { WhitelistTab } from './users/WhitelistTab';
import { VmsTab } from './VmsTab';
import { WorkspacesTab } from './WorkspacesTab';

const TABS = [
  { id: 'users', label: 'All Users', render: (p: AdminTabProps) => <UsersTab {...p} /> },
  { id: 'whitelist', label: 'Whitelist Management', render: (p: AdminTabProps) => <WhitelistTab {...p} /> },
  { id: 'vms', label: 'VMs', render: (p: AdminTabProps) => <VmsTab {...p} /> },
  { id: 'workspaces', label: 'Workspaces', render: (p: AdminTabProps) => <WorkspacesTab {...p} /> },
  { id: 'logs', label: 'System Logs', render: (p: AdminTabProps) => <SystemLogsTab {...p} /> },
  { id: 'audit', label: 'Audit Log', render: (p: AdminTabProps) => <AuditLogTab {...p} /> },
  { id: 'redis', label: 'Redis Management', render: (p: AdminTabProps) => <RedisTab {...p} /> },
  { id: 'monitoring', label: 'System Monitoring', render: (p: AdminTabProps) => <MonitoringTab {...p} /> },
] as const satisfies readonly { id: string; label: string; render: (p: AdminTabProps) => ReactNode }[];
type TabId = (typeof TABS)[number]['id'];

/** The signed-in admin's screen: stats, the banner, Logout, and eight tabs that load on first visit. */
export function AdminPanel({ onSignedOut }: { onSignedOut: () => void }) {
  const [banner, setBanner] = useState<Banner | null>(null);
  const [active, setActive] = useState<TabId>('users');
  const [visited, setVisited] = useState<ReadonlySet<TabId>>(() => new Set<TabId>(['users']));
  const [loggingOut, setLoggingOut] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const showBanner = useCallback((next: Banner | null, clearAfterMs?: number) => {
    clearTimeout(timer.current);
    setBanner(next);
    if (next && clearAfterMs) timer.current = setTimeout(() => setBanner(null), clearAfterMs);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);

  const notify = useMemo<AdminNotifier>(
    () => ({
      failure: (prefix, error) => {
        if (httpStatus(error) === 401) onSignedOut();
        else showBanner({ tone: 'error', text: failureText(prefix, error) });
      },
      notice: (text, ms) => showBanner({ tone: 'success', text }, ms),
    }),
    [onSignedOut, showBanner],
  );

  // The panel's header figures: loaded with the panel, again after a tab's flush, whitelist or delete.
  const { data: stats, reload: reloadStats } = useAdminLoad(useAdminStats(), LOAD_FAILURE.stats, notify);

  function open(tab: TabId) {
    setActive(tab);
    setVisited((seen) => (seen.has(tab) ? seen : new Set([...seen, tab])));
  }

  async function logout() {
    setLoggingOut(true);
    try {
      await adminLogout();
    } finally {
      // Spec §4: logout, or a logout error, clears the admin state.
      onSignedOut();
    }
  }

  const onChanged = () => void reloadStats();

  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <IconTile icon={Shield} className="rounded-lg bg-zinc-900 text-white" />
          <div>
            <h1 className="text-2xl font-semibold text-zinc-900">Admin Panel</h1>
            <p className="text-sm text-zinc-500">
              Users, whitelist, VMs, workspaces, logs, audit trail and caches
            </p>
          </div>
        </div>
        <Button variant="secondary" icon={LogOut} loading={loggingOut} onClick={logout}>
          Logout
        </Button>
      </header>

      <StatCards stats={stats} />

      {banner && <NoticeBanner banner={banner} onDismiss={() => showBanner(null)} />}

      <div
        role="tablist"
        aria-label="Admin sections"
        className="flex gap-1 overflow-x-auto border-b border-zinc-200"
      >
        {TABS.map((tab) => (
          <TabButton
            key={tab.id}
            id={`admin-tab-${tab.id}`}
            selected={active === tab.id}
            aria-controls={`admin-panel-${tab.id}`}
            onClick={() => open(tab.id)}
            className={cn(
              'px-4 py-2.5 whitespace-nowrap transition-colors',
              active !== tab.id && 'hover:border-zinc-300',
            )}
          >
            {tab.label}
          </TabButton>
        ))}
      </div>

      {TABS.filter((tab) => visited.has(tab.id)).map((tab) => (
        <div
          key={tab.id}
          id={`admin-panel-${tab.id}`}
          role="tabpanel"
          aria-labelledby={`admin-tab-${tab.id}`}
          hidden={active !== tab.id}
        >
          {tab.render({ active: active === tab.id, notify, onChanged })}
        </div>
      ))}
    </div>
  );
}
