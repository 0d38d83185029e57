import {
  DEPLOYMENT_STEPS,
  type DeployJobMetadata,
  type StartDeploymentResponse,
  serviceStateSchema,
  type WorkflowDefinition,
  type WorkflowState,
  type WorkflowStatus,
  type WorkflowStep,
} from '@slipway/contract';
import type { StepRecord } from '../infra/db/schema.js';
import type { DeploymentRow } from './deploymentRepository.js';
import type { DeploymentStarted } from './deployTrigger.js';

/** The deployment workflow's steps, all pending: what a client shows before a deployment starts. */
export const presentDefinition = (): WorkflowDefinition => ({
  name: 'deployment',
  description: 'Build and run a repository on its VM, verify it, and publish it over HTTPS',
  steps: DEPLOYMENT_STEPS.map((step) => ({
    name: step.name,
    description: step.description,
    status: 'pending',
  })),
});

const presentStep = (step: StepRecord): WorkflowStep => ({
  name: step.name,
  description: step.description,
  status: step.status,
  started_at: step.startedAt,
  finished_at: step.finishedAt,
  error: step.error,
});

export function workflowState(row: DeploymentRow): WorkflowState {
  if (row.status === 'completed') return 'completed';
  if (row.status === 'failed') return 'failed';
  return 'started';
}

/** The spec's workflow status; variables and internal details never appear in it. */
export function presentStatus(row: DeploymentRow): WorkflowStatus {
  const steps = row.steps.map(presentStep);
  const done = steps.filter((step) => step.status === 'completed').length;
  const current = Math.min(row.currentStep, Math.max(0, steps.length - 1));
  const meta = row.metadata as Record<string, unknown>;
  const urls = (meta.urls as Record<string, string> | undefined) ?? {};
  return {
    success: row.status !== 'failed',
    sessionId: row.sessionId,
    state: workflowState(row),
    currentStep: current,
    currentStepName: steps[current]?.name ?? '',
    progress: steps.length === 0 ? 0 : Math.round((done / steps.length) * 100),
    workflowComplete: row.status === 'completed',
    totalSteps: steps.length,
    steps,
    error: row.error,
    data: {
      deployJobId: row.id,
      deploymentData: {
        metadata: {
          service_url: (meta.service_url as string | null | undefined) ?? null,
          url: (meta.url as string | null | undefined) ?? null,
          urls,
          output: (meta.output as string | undefined) ?? '',
        },
      },
    },
  };
}

export function presentJob(row: DeploymentRow): DeployJobMetadata {
  const meta = row.metadata as Record<string, unknown>;
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  return {
    id: row.id,
    status: row.status as DeployJobMetadata['status'],
    workspace_name: row.workspaceName,
    branch: row.branch,
    commit_sha: row.commitSha,
    health_check_failed: meta.health_check_failed === true,
    failed_services: list(meta.failed_services),
    container_logs: (meta.container_logs as Record<string, string> | undefined) ?? {},
    failure_reason:
      (meta.failure_reason as string | undefined) ?? (row.status === 'failed' ? row.error : null),
    port_discovery_failed: meta.port_discovery_failed === true,
    expected_services: list(meta.expected_services),
    service_urls: (meta.service_urls as Record<string, string> | undefined) ?? {},
    service_states: Array.isArray(meta.service_states)
      ? meta.service_states.flatMap((entry) => {
          const parsed = serviceStateSchema.safeParse(entry);
          return parsed.success ? [parsed.data] : [];
        })
      : [],
    error: row.error,
  };
}

/** The API's answer for a deployment started. */
export const startedAnswer = ({ sessionId, deploymentId }: DeploymentStarted): StartDeploymentResponse => ({
  success: true,
  sessionId,
  deploymentId,
});
