import { GitPullRequest } from 'lucide-react';
import { usePreviews } from '../../api/previews';
import { PreviewLinks } from '../../components/previews/PreviewLinks';
import { previewName, previewStatus, previewsPollInterval } from '../../components/previews/previewView';
import { StatusBadge } from '../../components/StatusBadge';
import { CardBody } from '../../components/ui';
import { ManagedCard } from './ManagedCard';

/** The selected workspace's pull request previews, at a glance; shown only when it has some. */
export function PreviewsCard({ workspace }: { workspace: string }) {
  const previews = usePreviews(workspace, { refetchInterval: previewsPollInterval });
  if (!previews.data || previews.data.length === 0) return null;
  return (
    <ManagedCard title="Previews" icon={GitPullRequest} workspace={workspace} tab="previews">
      <CardBody className="py-2">
        <ul className="divide-y divide-zinc-100" aria-label="Previews">
          {previews.data.map((preview) => (
            <li key={preview.number} className="space-y-1.5 py-3" data-testid="dashboard-preview">
              <div className="flex items-start justify-between gap-3">
                <p className="min-w-0 text-sm font-medium break-words text-zinc-900">
                  {previewName(preview)}
                </p>
                <StatusBadge status={previewStatus(preview)} />
              </div>
              {preview.cause && <p className="text-xs text-zinc-600">{preview.cause}</p>}
              <PreviewLinks preview={preview} />
            </li>
          ))}
        </ul>
      </CardBody>
    </ManagedCard>
  );
}
