import type { WorkflowStatus } from '@slipway/contract';

/** Pure rules of the deployment screen: step statuses, phases, the site URL. */

export type DisplayStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface DisplayStep {
  name: string;
  description: string;
  status: DisplayStatus;
}

/** completed, failed, in_progress or active, otherwise pending. */
export function normaliseStepStatus(status: string | null | undefined): DisplayStatus {
  if (status === 'completed' || status === 'failed') return status;
  if (status === 'in_progress' || status === 'active') return 'in_progress';
  return 'pending';
}

/** Where the workflow is: the step named currentStepName if listed, else currentStep (0-based), clamped. */
export function currentStepIndex(
  status: Pick<WorkflowStatus, 'currentStep' | 'currentStepName' | 'steps'>,
): number {
  const named = status.steps?.findIndex((step) => step.name === status.currentStepName) ?? -1;
  if (named >= 0) return named;
  const total = status.steps?.length ?? 0;
  return Math.max(0, Math.min(Number(status.currentStep) || 0, Math.max(0, total - 1)));
}

/**
 * The steps as shown. Steps without a status derive from the current step (earlier completed,
 * current in_progress, later pending); a 'waiting' workflow shows its pending current step as in_progress.
 */
export function displaySteps(status: WorkflowStatus): DisplayStep[] {
  const current = currentStepIndex(status);
  const waiting = String(status.state).toLowerCase().includes('waiting');
  return (status.steps ?? []).map((step, index) => {
    let shown: DisplayStatus;
    if (step.status) shown = normaliseStepStatus(step.status);
    else shown = index < current ? 'completed' : index === current ? 'in_progress' : 'pending';
    if (waiting && index === current && shown === 'pending') shown = 'in_progress';
    return { name: step.name, description: step.description, status: shown };
  });
}

/** Phase 1, 2 or 3: the current step's position by thirds of the step count (≤33%, ≤66%, rest). */
export function phaseFor(stepIndex: number, totalSteps: number): 1 | 2 | 3 {
  if (totalSteps <= 0) return 1;
  const percent = ((stepIndex + 1) / totalSteps) * 100;
  if (percent <= 100 / 3 + 1e-9) return 1;
  if (percent <= 200 / 3 + 1e-9) return 2;
  return 3;
}

export function completedCount(steps: readonly DisplayStep[]): number {
  return steps.filter((step) => step.status === 'completed').length;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** https for names, http for localhost and IP addresses; a missing scheme is added, a wrong one replaced. */
export function normaliseSiteUrl(raw: string | null | undefined): string | null {
  const trimmed = raw?.trim();
  if (!trimmed) return null;
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  if (!withoutScheme) return null;
  const authority = withoutScheme.split(/[/?#]/, 1)[0] ?? '';
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : authority.split(':')[0];
  const lowerHost = (host ?? '').toLowerCase();
  const local =
    // Only localhost itself: `{service}-{workspace}.localhost` names are Caddy's HTTPS routes.
    lowerHost === 'localhost' || IPV4.test(lowerHost) || lowerHost.startsWith('[');
  return `${local ? 'http' : 'https'}://${withoutScheme}`;
}

/** The deployment's address from data.deploymentData.metadata: service_url, then url, then the first of urls. */
export function siteUrlFrom(status: WorkflowStatus | null | undefined): string | null {
  const metadata = status?.data?.deploymentData?.metadata;
  if (!metadata) return null;
  const first =
    metadata.urls && typeof metadata.urls === 'object' ? Object.values(metadata.urls)[0] : undefined;
  return normaliseSiteUrl(metadata.service_url || metadata.url || first || null);
}

/** The workflow has finished for good: completed with workflowComplete (a step completing is not enough). */
export function isDeploymentComplete(status: WorkflowStatus | null | undefined): boolean {
  return status?.state === 'completed' && status.workflowComplete === true;
}

export function isDeploymentFailed(status: WorkflowStatus | null | undefined): boolean {
  return status?.state === 'failed';
}
