import type { Revision, WorkspaceRevisions } from '@slipway/contract';
import { History, RotateCcw } from 'lucide-react';
import { startRollback, useRevisions } from '../../api/revisions';
import { AsyncSection } from '../../components/AsyncSection';
import { settingsLoadError } from '../../components/settings/SettingsLoadError';
import { Alert, Badge, Button, Card, CardBody } from '../../components/ui';
import { useDeploymentStart } from '../../components/workspace/useDeploymentStart';
import { formatDateTime } from '../../lib/dates';
import { TRIGGER_LABELS } from '../../lib/deploymentTriggers';
import { DeployOnPushSwitch } from './DeployOnPushSwitch';

/**
 * Workspace Settings → Revisions: deploy on push, and the workspace's successful deployments, newest first, each
 * kept one a click away from running again.
 */
export function RevisionsTab({ workspace }: { workspace: string }) {
  const revisions = useRevisions(workspace);
  return (
    <>
      <DeployOnPushSwitch workspace={workspace} />
      <AsyncSection query={revisions} failed={settingsLoadError}>
        {(data) => <Revisions workspace={workspace} revisions={data} />}
      </AsyncSection>
    </>
  );
}

function Revisions({ workspace, revisions }: { workspace: string; revisions: WorkspaceRevisions }) {
  const { starting, error, start } = useDeploymentStart();
  const { owner, repo, kept } = revisions;
  const rollBack = (revision: Revision) =>
    start(revision.deployment_id, { owner, repo }, (sessionId) =>
      startRollback(workspace, revision.deployment_id, sessionId),
    );

  return (
    <Card>
      <CardBody>
        <h2 className="flex items-center gap-2 font-semibold text-zinc-900">
          <History className="h-5 w-5 text-accent-600" aria-hidden="true" /> Revisions
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Every successful deployment. The images of the last {kept} are kept: rolling back to one starts it
          again in seconds, without a build.
        </p>
        {error && (
          <Alert tone="error" className="mt-4">
            {error}
          </Alert>
        )}
        {revisions.revisions.length === 0 ? (
          <p className="mt-6 text-sm text-zinc-500">No successful deployment yet.</p>
        ) : (
          <ul className="mt-4 divide-y divide-zinc-100" aria-label="Revisions">
            {revisions.revisions.map((revision) => (
              <li
                key={revision.deployment_id}
                data-testid="revision"
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
                    <code className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs">
                      {revision.commit_sha?.slice(0, 7) ?? 'unknown'}
                    </code>
                    <span>{revision.branch}</span>
                    <Badge tone={revision.trigger === 'rollback' ? 'warning' : 'neutral'}>
                      {TRIGGER_LABELS[revision.trigger]}
                    </Badge>
                    {revision.current && <Badge tone="success">Live</Badge>}
                  </p>
                  <p className="mt-1 text-xs text-zinc-500">
                    {formatDateTime(revision.deployed_at)} by {revision.deployed_by}
                    {revision.duration_seconds !== null && ` · took ${revision.duration_seconds} s`}
                  </p>
                </div>
                {revision.can_roll_back && (
                  <Button
                    variant="secondary"
                    size="sm"
                    loading={starting === revision.deployment_id}
                    disabled={starting !== null}
                    icon={RotateCcw}
                    onClick={() => void rollBack(revision)}
                  >
                    Roll Back
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
