import { GitPullRequest } from 'lucide-react';
import { Link } from 'react-router';
import { usePreviews } from '../../api/previews';
import { PreviewLinks } from '../../components/previews/PreviewLinks';
import { PreviewStateBadge } from '../../components/previews/PreviewStateBadge';
import { previewName, previewsPollInterval } from '../../components/previews/previewView';
import { Card, CardBody, CardHeader } from '../../components/ui';

/** The selected workspace's pull request previews, at a glance; shown only when it has some. */
export function PreviewsCard({ workspace }: { workspace: string }) {
  const previews = usePreviews(workspace, { refetchInterval: previewsPollInterval });
  if (!previews.data || previews.data.length === 0) return null;
  return (
    <Card>
      <CardHeader
        title="Previews"
        icon={GitPullRequest}
        action={
          <Link
            to={`/workspace-settings?workspace=${encodeURIComponent(workspace)}&tab=previews`}
            className="text-sm font-medium whitespace-nowrap text-accent-700 hover:underline"
          >
            Manage
          </Link>
        }
      />
      <CardBody className="py-2">
        <ul className="divide-y divide-zinc-100" aria-label="Previews">
          {previews.data.map((preview) => (
            <li key={preview.number} className="space-y-1.5 py-3" data-testid="dashboard-preview">
              <div className="flex items-start justify-between gap-3">
                <p className="min-w-0 text-sm font-medium break-words text-zinc-900">
                  {previewName(preview)}
                </p>
                <PreviewStateBadge preview={preview} showCause={false} />
              </div>
              {preview.cause && <p className="text-xs text-zinc-600">{preview.cause}</p>}
              <PreviewLinks preview={preview} />
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}
