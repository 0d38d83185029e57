import type { DeployJobMetadata } from '@slipway/contract';
import { LayoutDashboard, LifeBuoy, RefreshCcw, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import type { DeploymentConfig } from '../../api/workflow';
import { DetailRow } from '../../components/DetailRow';
import { ScreenHeading } from '../../components/ScreenHeading';
import { ButtonLink, Card, CardBody } from '../../components/ui';
import { completedCount, type DisplayStep } from './deployProgress';
import { FailureDetails } from './FailureDetails';
import { StepList } from './StepList';
import { TroubleshootingGuide } from './TroubleshootingGuide';

interface FailureViewProps {
  /** null when the configuration or the error is missing: 'Error details are not available'. */
  reason: string | null;
  job: DeployJobMetadata | null;
  steps: DisplayStep[];
  config: DeploymentConfig | null;
  vmSizeName: string | undefined;
}

export function FailureView({ reason, job, steps, config, vmSizeName }: FailureViewProps) {
  return (
    <div className="space-y-6">
      <ScreenHeading icon={XCircle} title="Deployment Failed" tone="danger" size="xl" centered>
        <p className="mx-auto mt-2 max-w-2xl break-words text-zinc-700" data-testid="failure-reason">
          {reason ?? 'Error details are not available'}
        </p>
      </ScreenHeading>

      <Card>
        <CardBody>
          <FailureDetails job={job} />
        </CardBody>
      </Card>

      <TroubleshootingGuide />

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardBody>
            <div className="mb-3 flex items-center justify-between">
              <h2 className="font-semibold text-zinc-900">Steps</h2>
              <span className="text-sm text-zinc-500" data-testid="step-progress-count">
                {completedCount(steps)}/{steps.length} steps completed
              </span>
            </div>
            <StepList steps={steps} />
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <h2 className="mb-3 font-semibold text-zinc-900">Configuration</h2>
            {config ? (
              <dl className="space-y-2 text-sm">
                <DetailRow label="Repository" value={`${config.owner}/${config.repo}`} />
                <DetailRow label="Branch" value={config.branch} />
                <DetailRow
                  label="VM size"
                  value={vmSizeName ? `${vmSizeName} (${config.vmSize})` : config.vmSize}
                />
                <DetailRow label="Subscription" value={config.subscriptionId || 'None'} />
              </dl>
            ) : (
              <p className="text-sm text-zinc-500">Error details are not available</p>
            )}
          </CardBody>
        </Card>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
        <ButtonLink to="/dashboard" variant="secondary" icon={LayoutDashboard}>
          Return to Dashboard
        </ButtonLink>
        <ButtonLink to="/repository-picker" icon={RefreshCcw}>
          Try Different Configuration
        </ButtonLink>
      </div>

      <div className="flex items-start gap-3 rounded-xl border border-zinc-200 bg-zinc-50 px-5 py-4 text-sm text-zinc-700">
        <LifeBuoy className="mt-0.5 h-5 w-5 shrink-0 text-accent-600" aria-hidden="true" />
        <p>
          <span className="font-semibold text-zinc-900">Need Help?</span> Read the{' '}
          <Link to="/documentation" className="font-medium text-accent-700 hover:underline">
            documentation
          </Link>{' '}
          or{' '}
          <Link to="/contact" className="font-medium text-accent-700 hover:underline">
            contact support
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
