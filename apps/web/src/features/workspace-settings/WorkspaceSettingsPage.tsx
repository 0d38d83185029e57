import { ArrowLeft, Bell, History, KeyRound, Save, Settings } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AsyncSection } from '../../components/AsyncSection';
import { PageHeader } from '../../components/PageHeader';
import { SettingsLoadError } from '../../components/settings/SettingsLoadError';
import type { SettingsTab } from '../../components/settings/settingsTab';
import { Alert, Button, TabButton } from '../../components/ui';
import { EnvVariablesTab } from './EnvVariablesTab';
import { NotificationsTab } from './NotificationsTab';
import { RevisionsTab } from './RevisionsTab';
import { configLoadError, useNotificationSettings } from './useNotificationSettings';

/** Notifications is the page's own: the header's Save Changes saves it. */
const NOTIFICATIONS = { id: 'notifications', label: 'Notifications', icon: Bell } as const;

/** This area's other tabs; the ones other areas bring come after them. */
const OWN_TABS: readonly SettingsTab[] = [
  { id: 'env', label: 'Environment Variables', icon: KeyRound, Panel: EnvVariablesTab },
  { id: 'revisions', label: 'Revisions', icon: History, Panel: RevisionsTab },
];

/**
 * Workspace Settings: Notifications, Environment Variables and Revisions, then `moreTabs`, the tabs of the areas
 * app/ composes in (domains, previews, backups). `?tab=` opens one; Notifications otherwise.
 */
export function WorkspaceSettingsPage({ moreTabs = [] }: { moreTabs?: readonly SettingsTab[] }) {
  const [params] = useSearchParams();
  const workspace = params.get('workspace') ?? '';
  if (!workspace) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <SettingsLoadError message="No workspace was named in the address." />
      </div>
    );
  }
  return <WorkspaceSettings key={workspace} workspace={workspace} tabs={[...OWN_TABS, ...moreTabs]} />;
}

function WorkspaceSettings({ workspace, tabs }: { workspace: string; tabs: readonly SettingsTab[] }) {
  const [params] = useSearchParams();
  // The tab named in the address (`?tab=revisions`), else Notifications.
  const [tab, setTab] = useState(
    () => tabs.find(({ id }) => id === params.get('tab'))?.id ?? NOTIFICATIONS.id,
  );
  const settings = useNotificationSettings(workspace);
  const Panel = tabs.find(({ id }) => id === tab)?.Panel;

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <Link
        to={`/dashboard?workspace=${encodeURIComponent(workspace)}`}
        className="inline-flex items-center gap-1 text-sm text-zinc-600 hover:text-zinc-900"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Dashboard
      </Link>
      <PageHeader
        className="mt-3"
        icon={Settings}
        title="Workspace Settings"
        subtitle={workspace}
        actions={
          <Button
            onClick={() => void settings.save()}
            loading={settings.saving}
            disabled={settings.load.isPending || settings.load.isError}
            icon={Save}
          >
            {settings.saving ? 'Saving...' : 'Save Changes'}
          </Button>
        }
      />

      <div
        role="tablist"
        aria-label="Settings"
        className="mt-6 flex gap-1 overflow-x-auto border-b border-zinc-200"
      >
        {[NOTIFICATIONS, ...tabs].map(({ id, label, icon: Icon }) => (
          <TabButton
            key={id}
            selected={tab === id}
            onClick={() => setTab(id)}
            className="inline-flex items-center gap-2 px-4 py-2 whitespace-nowrap"
          >
            <Icon className="h-4 w-4" aria-hidden="true" />
            {label}
          </TabButton>
        ))}
      </div>

      <div className="mt-6 space-y-4">
        {settings.saveError && <Alert tone="error">{settings.saveError}</Alert>}
        {settings.saved && <Alert tone="success">Settings saved.</Alert>}
        {Panel ? (
          <Panel workspace={workspace} />
        ) : (
          <AsyncSection
            query={settings.load}
            failed={(error) => <SettingsLoadError message={configLoadError(error)} />}
          >
            {() => <NotificationsTab settings={settings} />}
          </AsyncSection>
        )}
      </div>
    </div>
  );
}
