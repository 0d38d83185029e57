import {
  ArrowLeft,
  Bell,
  DatabaseBackup,
  GitPullRequest,
  Globe,
  History,
  KeyRound,
  type LucideIcon,
  Save,
  Settings,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Alert, Button, Spinner, TabButton } from '../../components/ui';
import { BackupsTab } from './backups/BackupsTab';
import { DeployOnPushSwitch } from './DeployOnPushSwitch';
import { DomainsTab } from './domains/DomainsTab';
import { EnvVariablesTab } from './EnvVariablesTab';
import { NotificationsTab } from './NotificationsTab';
import { PreviewsTab } from './previews/PreviewsTab';
import { RevisionsTab } from './RevisionsTab';
import { SettingsLoadError } from './SettingsLoadError';
import { useNotificationSettings } from './useNotificationSettings';

type Tab = 'notifications' | 'env' | 'revisions' | 'domains' | 'previews' | 'backups';

const TABS: { id: Tab; label: string; icon: LucideIcon }[] = [
  { id: 'notifications', label: 'Notifications', icon: Bell },
  { id: 'env', label: 'Environment Variables', icon: KeyRound },
  { id: 'revisions', label: 'Revisions', icon: History },
  { id: 'domains', label: 'Domains', icon: Globe },
  { id: 'previews', label: 'Previews', icon: GitPullRequest },
  { id: 'backups', label: 'Backups', icon: DatabaseBackup },
];

/** The tab named in the address (`?tab=revisions`), else Notifications. */
const tabNamed = (name: string | null): Tab => TABS.find((tab) => tab.id === name)?.id ?? 'notifications';

export function WorkspaceSettingsPage() {
  const [params] = useSearchParams();
  const workspace = params.get('workspace') ?? '';
  if (!workspace) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <SettingsLoadError message="No workspace was named in the address." />
      </div>
    );
  }
  return <WorkspaceSettings key={workspace} workspace={workspace} />;
}

function WorkspaceSettings({ workspace }: { workspace: string }) {
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>(tabNamed(params.get('tab')));
  const settings = useNotificationSettings(workspace);

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
            disabled={settings.load.status !== 'ready'}
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
        {TABS.map(({ id, label, icon: Icon }) => (
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
        {tab === 'notifications' ? (
          settings.load.status === 'loading' ? (
            <div className="flex justify-center py-16">
              <Spinner className="text-accent-600" />
            </div>
          ) : settings.load.status === 'error' ? (
            <SettingsLoadError message={settings.load.message} />
          ) : (
            <NotificationsTab settings={settings} />
          )
        ) : tab === 'env' ? (
          <EnvVariablesTab workspace={workspace} />
        ) : tab === 'domains' ? (
          <DomainsTab workspace={workspace} />
        ) : tab === 'previews' ? (
          <PreviewsTab workspace={workspace} />
        ) : tab === 'backups' ? (
          <BackupsTab workspace={workspace} />
        ) : (
          <>
            <DeployOnPushSwitch workspace={workspace} />
            <RevisionsTab workspace={workspace} />
          </>
        )}
      </div>
    </div>
  );
}
