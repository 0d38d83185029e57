import { Rocket } from 'lucide-react';
import { useWorkspaceDetails } from '../../api/workspaces';
import { Badge, Card, CardBody, CardHeader, Spinner } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';
import { TRIGGER_LABELS } from '../../lib/deploymentTriggers';

/** The workspace's newest deployment: its commit, how it was started (a push among them), its status and when. */
export function LatestDeploymentCard({ workspace }: { workspace: string }) {
  const details = useWorkspaceDetails(workspace);
  const latest = details.data?.latest_deployment;
  return (
    <Card>
      <CardHeader title="Latest Deployment" icon={Rocket} />
      <CardBody className="text-sm" data-testid="latest-deployment">
        {details.isPending ? (
          <Spinner size="sm" className="text-accent-600" />
        ) : details.isError ? (
          <p className="text-zinc-500">The latest deployment could not be read.</p>
        ) : !latest ? (
          <p className="text-zinc-500">No deployment yet.</p>
        ) : (
          <div className="space-y-1">
            <p className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs">
                {latest.commit_sha?.slice(0, 7) ?? 'unknown'}
              </code>
              <Badge tone="neutral">{TRIGGER_LABELS[latest.trigger]}</Badge>
              <span className="text-zinc-700">{latest.status}</span>
            </p>
            <p className="text-xs text-zinc-500">{formatDateTime(latest.created_at)}</p>
          </div>
        )}
      </CardBody>
    </Card>
  );
}
