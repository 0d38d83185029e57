import type { DeployJobMetadata } from '@slipway/contract';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useVmSizes } from '../../api/repositories';
import {
  cancelWorkflow,
  fetchDeployJob,
  startWorkflow,
  useExistingWorkflow,
  useWorkflowDefinition,
} from '../../api/workflow';
import { Alert, ButtonLink, LoadingView } from '../../components/ui';
import { newSessionId } from '../../lib/sessionId';
import { displaySteps, isDeploymentComplete, isDeploymentFailed, siteUrlFrom } from './deployProgress';
import { FailureView } from './FailureView';
import { ProgressView } from './ProgressView';
import { ReviewView } from './ReviewView';
import { SuccessView } from './SuccessView';
import { type DeployNavigationState, useDeploymentConfig } from './useDeploymentConfig';
import { useDeploymentLogs } from './useDeploymentLogs';
import { useWorkflowStatus } from './useWorkflowStatus';

type Mode = 'checking' | 'start' | 'running';

/** /deploy/{owner}/{repo}?sessionId=: review, then progress, success or failure of one deployment. */
export function DeployPage() {
  const { owner = '', repo = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const nav = (location.state ?? {}) as DeployNavigationState;
  const sessionId = searchParams.get('sessionId');

  useEffect(() => {
    if (sessionId) return;
    setSearchParams({ sessionId: newSessionId() }, { replace: true, state: location.state });
  }, [sessionId, setSearchParams, location.state]);

  const { config, resolved } = useDeploymentConfig(owner, repo, sessionId, nav);
  const existing = useExistingWorkflow(sessionId);
  // The session this screen started (its deployment is running whatever the first look said).
  const [startedSession, setStartedSession] = useState<string | null>(null);
  const mode: Mode =
    sessionId !== null && startedSession === sessionId
      ? 'running'
      : existing.data === undefined
        ? 'checking'
        : existing.data
          ? 'running'
          : 'start';
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const autoStarted = useRef(false);
  const workflow = useWorkflowDefinition();
  const vmSizes = useVmSizes();

  const start = async () => {
    if (!config || !sessionId) return;
    if (!config.subscriptionId) {
      navigate(`/billing/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, {
        // The repository too, so billing works when this page was opened directly (no stored selection).
        state: {
          repo: { id: `${owner}/${repo}`, name: repo, owner: { login: owner } },
          branch: config.branch,
          vmSize: config.vmSize,
          nodes: config.nodes,
        },
      });
      return;
    }
    setStarting(true);
    setStartError(null);
    try {
      await startWorkflow({ sessionId, ...config, subscriptionId: config.subscriptionId });
      setStartedSession(sessionId);
    } catch (error) {
      setStartError(error instanceof Error ? error.message : 'Failed to start workflow');
    } finally {
      setStarting(false);
    }
  };

  // Arriving from billing or payment with a subscription starts the deployment by itself.
  useEffect(() => {
    if (
      mode !== 'start' ||
      !resolved ||
      !config?.subscriptionId ||
      !nav.subscriptionId ||
      autoStarted.current
    )
      return;
    autoStarted.current = true;
    void start();
  });

  const { status, streamError } = useWorkflowStatus(sessionId ?? '', mode === 'running');
  const complete = isDeploymentComplete(status);
  const failed = isDeploymentFailed(status);
  const logs = useDeploymentLogs(owner, repo, {
    stepName: status?.currentStepName ?? null,
    completed: complete,
    active: mode === 'running' && !failed,
  });

  const [job, setJob] = useState<DeployJobMetadata | null>(null);
  const jobId = failed ? status?.data?.deployJobId : undefined;
  const stopLogs = logs.stop;
  useEffect(() => {
    if (!failed) return;
    stopLogs();
    if (jobId) void fetchDeployJob(jobId).then(setJob);
  }, [failed, jobId, stopLogs]);

  const vmSize = vmSizes.data?.find((size) => size.id === config?.vmSize);
  const steps = status ? displaySteps(status) : [];

  let content: ReactNode;
  if (!sessionId || mode === 'checking' || (mode === 'start' && !resolved)) {
    content = <LoadingView />;
  } else if (mode === 'start') {
    content = config ? (
      <ReviewView
        owner={owner}
        repo={repo}
        branch={config.branch}
        vmSize={vmSize}
        nodes={config.nodes}
        workflow={workflow.data}
        starting={starting}
        error={startError}
        onStart={() => void start()}
      />
    ) : (
      <div className="space-y-4">
        <Alert tone="warning" title="Nothing to deploy yet">
          Choose a repository, a branch and a VM size first.
        </Alert>
        <ButtonLink to="/repository-picker">Back to Repository Selection</ButtonLink>
      </div>
    );
  } else if (complete) {
    content = <SuccessView repo={repo} siteUrl={siteUrlFrom(status)} steps={steps} />;
  } else if (failed) {
    content = (
      <FailureView
        reason={status?.error || 'Workflow failed'}
        job={job}
        steps={steps}
        config={config}
        vmSizeName={vmSize?.name}
      />
    );
  } else {
    content = (
      <>
        {streamError && !status && (
          <Alert tone="error" className="mb-6">
            {streamError}
          </Alert>
        )}
        <ProgressView
          owner={owner}
          repo={repo}
          status={status}
          lines={logs.lines}
          logType={logs.logType}
          onCancel={() => cancelWorkflow(sessionId)}
        />
      </>
    );
  }

  return <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-12">{content}</div>;
}
