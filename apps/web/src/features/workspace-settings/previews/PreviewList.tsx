import { GitPullRequest } from 'lucide-react';
import { usePreviews } from '../../../api/previews';
import { EmptyState } from '../../../components/EmptyState';
import { previewsPollInterval } from '../../../components/previews/previewView';
import { Spinner } from '../../../components/ui';
import { SettingsLoadError } from '../SettingsLoadError';
import { PreviewTable } from './PreviewTable';

/** The workspace's previews, read again every few seconds while one deploys, and now and then otherwise. */
export function PreviewList({ workspace }: { workspace: string }) {
  const previews = usePreviews(workspace, { refetchInterval: previewsPollInterval });

  if (previews.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner className="text-accent-600" />
      </div>
    );
  }
  if (previews.isError) return <SettingsLoadError message={previews.error.message} />;
  if (previews.data.length === 0) {
    return (
      <EmptyState
        icon={GitPullRequest}
        title="No previews"
        description="Once previews are on, each open pull request appears here with its state and links."
      />
    );
  }
  return <PreviewTable workspace={workspace} previews={previews.data} />;
}
