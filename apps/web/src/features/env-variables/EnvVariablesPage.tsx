import { ArrowRight, GitBranch, KeyRound, SkipForward } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { uploadEnvVariables } from '../../api/envVariables';
import { BackToRepositoryPicker } from '../../components/BackToRepositoryPicker';
import { useDialogs } from '../../components/DialogsProvider';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Alert, Button } from '../../components/ui';
import { useDeploymentSelection } from '../../lib/deploymentSelection';
import { deployPath } from '../../lib/deployPath';
import { EnvInfoPanel } from './EnvInfoPanel';
import { EnvVariablesEditor } from './EnvVariablesEditor';
import { uploadErrorText } from './uploadErrorText';
import { useEnvRows } from './useEnvRows';

/** /env-variables/{repoName}: the optional step between choosing a branch and reviewing the deployment. */
export function EnvVariablesPage() {
  const { repoName = '' } = useParams();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const { selectedRepo, selectedBranch, selectedVmSize } = useDeploymentSelection();
  const controller = useEnvRows();
  const [saving, setSaving] = useState(false);

  const repo = selectedRepo && selectedRepo.name === repoName ? selectedRepo : null;
  // The workspace is named after the repository.
  const workspaceName = repo?.name ?? repoName;

  const goToReview = () => {
    if (!repo) return;
    navigate(deployPath(repo.owner.login, repo.name), {
      state: { branch: selectedBranch, vmSize: selectedVmSize },
    });
  };

  const continueToNext = async () => {
    const variables = controller.variables;
    if (variables.length > 0) {
      setSaving(true);
      try {
        await uploadEnvVariables(workspaceName, variables);
      } catch (error) {
        setSaving(false);
        await dialogs.alert(uploadErrorText(error));
        return;
      }
      setSaving(false);
    }
    goToReview();
  };

  const busy = saving || controller.uploading;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-12">
      <ScreenHeading icon={KeyRound} title="Environment Variables">
        <p className="mt-1 text-zinc-600">
          This step is optional — add the variables your app needs, or skip and add them later from the
          workspace settings.
        </p>
      </ScreenHeading>

      {repo ? (
        <div className="mt-6 flex flex-wrap items-center gap-x-6 gap-y-2 rounded-xl border border-zinc-200 bg-white px-5 py-4 text-sm shadow-sm">
          <span>
            <span className="text-zinc-500">Repository: </span>
            <span className="font-medium text-zinc-900" data-testid="env-repository">
              {repo.owner.login}/{repo.name}
            </span>
          </span>
          <span className="inline-flex items-center gap-1.5">
            <GitBranch className="h-4 w-4 text-zinc-400" aria-hidden="true" />
            <span className="text-zinc-500">Branch: </span>
            <span className="font-medium text-zinc-900" data-testid="env-branch">
              {selectedBranch || '—'}
            </span>
          </span>
        </div>
      ) : (
        <Alert tone="warning" className="mt-6" title="No repository selected">
          Choose the repository to deploy first; its variables are stored with its workspace.
        </Alert>
      )}

      <div className="mt-6 space-y-6">
        <EnvInfoPanel />
        <EnvVariablesEditor controller={controller} disabled={saving} />
      </div>

      <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <BackToRepositoryPicker>Back to Repository</BackToRepositoryPicker>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button variant="ghost" icon={SkipForward} disabled={busy || !repo} onClick={goToReview}>
            Skip
          </Button>
          <Button loading={saving} disabled={busy || !repo} onClick={() => void continueToNext()}>
            Continue to Next Step
            {!saving && <ArrowRight className="h-4 w-4" aria-hidden="true" />}
          </Button>
        </div>
      </div>
    </div>
  );
}
