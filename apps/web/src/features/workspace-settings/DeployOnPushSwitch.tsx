import { GitBranch } from 'lucide-react';
import { useState } from 'react';
import { useDeployOnPush, useSetDeployOnPush } from '../../api/deployOnPush';
import { Alert, Card, CardBody, Spinner } from '../../components/ui';

/** The workspace's deploy-on-push switch: a push to its branch deploys the newest commit. */
export function DeployOnPushSwitch({ workspace }: { workspace: string }) {
  const setting = useDeployOnPush(workspace);
  const change = useSetDeployOnPush(workspace);
  // What the user just chose shows at once (in the same render as the click), until the server has answered.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const enabled = chosen ?? setting.data?.enabled ?? false;

  return (
    <Card>
      <CardBody>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="flex items-center gap-2 font-semibold text-zinc-900">
              <GitBranch className="h-5 w-5 text-accent-600" aria-hidden="true" /> Deploy on push
            </h2>
            <p className="mt-1 text-sm text-zinc-600">
              A push to the workspace's branch deploys its newest commit; pushes close together become one
              deployment.
            </p>
          </div>
          {setting.isPending ? (
            <Spinner className="text-accent-600" />
          ) : (
            <label className="flex items-center gap-2 text-sm font-medium text-zinc-800">
              <input
                type="checkbox"
                checked={enabled}
                disabled={setting.isError || change.isPending}
                onChange={(event) => {
                  setChosen(event.target.checked);
                  change.mutate(event.target.checked, { onSettled: () => setChosen(null) });
                }}
              />
              Deploy on push
            </label>
          )}
        </div>
        {(setting.error ?? change.error) && (
          <Alert tone="error" className="mt-4">
            {(setting.error ?? change.error)?.message}
          </Alert>
        )}
      </CardBody>
    </Card>
  );
}
