import type { WorkflowStatus } from '@slipway/contract';
import { Rocket } from 'lucide-react';
import { useState } from 'react';
import type { LogType } from '../../api/logs';
import type { LogLine } from '../../components/logs/logParsing';
import { ScreenHeading } from '../../components/ScreenHeading';
import { Alert, Button, Card, CardBody, cn, Spinner } from '../../components/ui';
import { currentStepIndex, displaySteps, phaseFor } from './deployProgress';
import { LogPanel } from './LogPanel';
import { StepList, stepTitle } from './StepList';

const PHASES = ['Provisioning', 'Build & Deploy', 'Live & Ready'] as const;

/** The deployment while it runs: phase indicator, step list and live logs. */
export function ProgressView({
  owner,
  repo,
  status,
  lines,
  logType,
  onCancel,
}: {
  owner: string;
  repo: string;
  status: WorkflowStatus | null;
  lines: LogLine[];
  logType: LogType | null;
  /** Stops the deployment; what was serving keeps serving. */
  onCancel: () => Promise<void>;
}) {
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await onCancel();
    } catch (error) {
      setCancelError((error as Error).message);
      setCancelling(false);
    }
  };
  const steps = status ? displaySteps(status) : [];
  const index = status ? currentStepIndex(status) : 0;
  const phase = phaseFor(index, steps.length || status?.totalSteps || 0);
  const current = steps[index];
  const progress = Math.max(0, Math.min(100, Math.round(status?.progress ?? 0)));

  return (
    <div className="space-y-6">
      <ScreenHeading
        icon={Rocket}
        title={`Deploying ${repo}`}
        actions={
          <Button
            variant="secondary"
            className="ml-auto"
            loading={cancelling}
            disabled={cancelling || !status}
            onClick={() => void cancel()}
          >
            {cancelling ? 'Cancelling...' : 'Cancel Deployment'}
          </Button>
        }
      >
        <p className="mt-1 text-zinc-600">
          {owner}/{repo} — {current ? `${stepTitle(current.name)}...` : 'Starting deployment...'}
        </p>
      </ScreenHeading>
      {cancelError && <Alert tone="error">{cancelError}</Alert>}

      <Card>
        <CardBody>
          <ol className="grid grid-cols-3 gap-2" aria-label="Deployment phases" data-testid="phase-indicator">
            {PHASES.map((label, i) => {
              const number = i + 1;
              const state = number < phase ? 'done' : number === phase ? 'current' : 'next';
              return (
                <li
                  key={label}
                  aria-current={state === 'current' ? 'step' : undefined}
                  className="flex flex-col gap-2"
                >
                  <span
                    className={cn(
                      'h-1.5 rounded-full',
                      state === 'done'
                        ? 'bg-emerald-500'
                        : state === 'current'
                          ? 'bg-accent-500'
                          : 'bg-zinc-200',
                    )}
                  />
                  <span
                    className={cn(
                      'text-xs font-medium',
                      state === 'next' ? 'text-zinc-400' : 'text-zinc-800',
                    )}
                  >
                    Phase {number}: {label}
                  </span>
                </li>
              );
            })}
          </ol>
          <div className="mt-4 flex items-center gap-3 text-sm text-zinc-600">
            <Spinner size="sm" className="text-accent-600" />
            <span>{progress}% complete</span>
          </div>
        </CardBody>
      </Card>

      <div className="grid gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-2">
          <CardBody>
            <h2 className="mb-3 font-semibold text-zinc-900">Steps</h2>
            {steps.length > 0 ? (
              <StepList steps={steps} />
            ) : (
              <p className="flex items-center gap-2 text-sm text-zinc-500">
                <Spinner size="sm" /> Waiting for the workflow to start...
              </p>
            )}
          </CardBody>
        </Card>
        <div className="lg:col-span-3">
          <LogPanel lines={lines} logType={logType} />
        </div>
      </div>
    </div>
  );
}
