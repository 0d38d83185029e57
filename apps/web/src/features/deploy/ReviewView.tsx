import type { VmSize, WorkflowDefinition } from '@slipway/contract';
import { ChevronDown, GitBranch, Rocket, Server } from 'lucide-react';
import { useState } from 'react';
import { BackToRepositoryPicker } from '../../components/BackToRepositoryPicker';
import { DetailRow } from '../../components/DetailRow';
import { Alert, Button, Card, CardBody, CardHeader } from '../../components/ui';
import { priceText } from '../../lib/nodePrice';
import { stepTitle } from './StepList';

const VM_DETAILS = [
  'Auto-scaling',
  '99.9% uptime guarantee',
  'Automatic SSL certificate',
  'Custom domain support',
];

interface ReviewViewProps {
  owner: string;
  repo: string;
  branch: string;
  vmSize: VmSize | undefined;
  nodes: number;
  workflow: WorkflowDefinition | undefined;
  starting: boolean;
  error: string | null;
  onStart: () => void;
}

/** 'Review Your Deployment': what will be deployed where, the workflow's steps, and Start Deployment. */
export function ReviewView({
  owner,
  repo,
  branch,
  vmSize,
  nodes,
  workflow,
  starting,
  error,
  onStart,
}: ReviewViewProps) {
  const [detailsOpen, setDetailsOpen] = useState(false);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-950">Review Your Deployment</h1>
        <p className="mt-1 font-mono text-sm text-zinc-600">
          {owner}/{repo}
        </p>
      </div>

      {error && (
        <Alert tone="error" title="Deployment could not start">
          {error}
        </Alert>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader title="Repository" icon={GitBranch} />
          <CardBody>
            <dl className="space-y-3 text-sm">
              <DetailRow label="Owner" value={owner} />
              <DetailRow label="Repository" value={repo} />
              <DetailRow label="Branch" value={branch || '—'} />
            </dl>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Virtual Machine" icon={Server} />
          <CardBody>
            <dl className="space-y-3 text-sm">
              <DetailRow label="Size" value={vmSize?.name ?? '—'} />
              <DetailRow label="Specs" value={vmSize?.specs ?? '—'} />
              <DetailRow label="Nodes" value={String(nodes)} />
              <DetailRow label="Monthly cost" value={vmSize ? priceText(vmSize, nodes) : '—'} />
            </dl>
            <button
              type="button"
              aria-expanded={detailsOpen}
              onClick={() => setDetailsOpen((open) => !open)}
              className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-accent-700 hover:text-accent-800"
            >
              {detailsOpen ? 'Hide details' : 'Show details'}
              <ChevronDown
                className={`h-4 w-4 transition ${detailsOpen ? 'rotate-180' : ''}`}
                aria-hidden="true"
              />
            </button>
            {detailsOpen && (
              <ul className="mt-3 space-y-1.5 text-sm text-zinc-600">
                {VM_DETAILS.map((detail) => (
                  <li key={detail} className="flex items-center gap-2">
                    <span className="h-1.5 w-1.5 rounded-full bg-accent-500" aria-hidden="true" />
                    {detail}
                  </li>
                ))}
              </ul>
            )}
          </CardBody>
        </Card>
      </div>

      <Card>
        <CardHeader title="Deployment Workflow" description={workflow?.description} />
        <CardBody>
          {workflow ? (
            <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="workflow-steps">
              {workflow.steps.map((step, index) => (
                <li key={step.name} className="flex gap-3 rounded-lg border border-zinc-100 bg-zinc-50 p-3">
                  <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-accent-100 text-xs font-semibold text-accent-700">
                    {index + 1}
                  </span>
                  <div className="min-w-0">
                    <p className="text-sm font-medium text-zinc-900">{stepTitle(step.name)}</p>
                    <p className="text-xs text-zinc-500">{step.description}</p>
                  </div>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-zinc-500">Loading workflow...</p>
          )}
        </CardBody>
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <BackToRepositoryPicker>Back to Repository Selection</BackToRepositoryPicker>
        <Button size="lg" loading={starting} icon={Rocket} onClick={onStart}>
          Start Deployment
        </Button>
      </div>
    </div>
  );
}
