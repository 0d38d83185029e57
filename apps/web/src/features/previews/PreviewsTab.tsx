import { GitPullRequest } from 'lucide-react';
import { usePreviews } from '../../api/previews';
import { previewsPollInterval } from '../../components/previews/previewView';
import { SettingsList } from '../../components/settings/SettingsList';
import type { SettingsTab } from '../../components/settings/settingsTab';
import { PreviewSettingsCard } from './PreviewSettingsCard';
import { PreviewsExplained } from './PreviewsExplained';
import { PreviewTable } from './PreviewTable';
import { PreviewVariablesCard } from './PreviewVariablesCard';

const NO_PREVIEWS = {
  icon: GitPullRequest,
  title: 'No previews',
  description: 'Once previews are on, each open pull request appears here with its state and links.',
};

/**
 * Workspace Settings → Previews: a running copy of each pull request, what it may see, and the list of them, read
 * again every few seconds while one deploys, and now and then otherwise.
 */
export function PreviewsTab({ workspace }: { workspace: string }) {
  const previews = usePreviews(workspace, { refetchInterval: previewsPollInterval });
  return (
    <div className="space-y-6">
      <PreviewSettingsCard workspace={workspace} />
      <SettingsList
        title="Pull request previews"
        description="Newest pull request first. Deploying → Live; a stranger's pull request awaits approval first."
        query={previews}
        empty={NO_PREVIEWS}
      >
        {(list) => <PreviewTable workspace={workspace} previews={list} />}
      </SettingsList>
      <PreviewVariablesCard workspace={workspace} />
      <PreviewsExplained workspace={workspace} />
    </div>
  );
}

export const previewsTab: SettingsTab = {
  id: 'previews',
  label: 'Previews',
  icon: GitPullRequest,
  Panel: PreviewsTab,
};
