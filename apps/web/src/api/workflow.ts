import type {
  DeployJobMetadata,
  StartDeploymentResponse,
  WorkflowDefinition,
  WorkflowStatus,
} from '@slipway/contract';
import axios from 'axios';
import { api } from './client';
import { httpStatus, serverError } from './errors';

const enc = encodeURIComponent;

/** The steps shown on the review screen when GET /api/workflow/deployment fails. */
export const DEFAULT_WORKFLOW: WorkflowDefinition = {
  name: 'Deployment',
  description: 'Deploy your repository to a virtual machine',
  steps: [
    { name: 'VM Provisioning', description: 'Create and prepare your virtual machine', status: 'pending' },
    {
      name: 'Build & Deploy',
      description: 'Build your containers and start your services',
      status: 'pending',
    },
    { name: 'Live & Ready', description: 'Verify health and publish your app over HTTPS', status: 'pending' },
  ],
};

export async function fetchWorkflowDefinition(): Promise<WorkflowDefinition> {
  try {
    const { data } = await api.get<WorkflowDefinition>('/api/workflow/deployment');
    return data && Array.isArray(data.steps) && data.steps.length > 0 ? data : DEFAULT_WORKFLOW;
  } catch {
    return DEFAULT_WORKFLOW;
  }
}

export interface StartWorkflowInput {
  sessionId: string;
  owner: string;
  repo: string;
  branch: string;
  vmSize: string;
  subscriptionId: string;
}

/**
 * POST /api/workflow/deployment/start. Errors: the server's error, else 'Workflow start
 * failed: {status text}', else 'Failed to start workflow'.
 */
export async function startWorkflow(input: StartWorkflowInput): Promise<StartDeploymentResponse> {
  let data: { success?: boolean; error?: string } & Partial<StartDeploymentResponse>;
  try {
    ({ data } = await api.post('/api/workflow/deployment/start', input, { sameAnswerIfRepeated: true }));
  } catch (error) {
    const message = serverError(error);
    if (message) throw new Error(message, { cause: error });
    if (axios.isAxiosError(error) && error.response) {
      const text =
        typeof error.response.data === 'string' && error.response.data ? error.response.data : null;
      throw new Error(
        text ?? `Workflow start failed: ${error.response.statusText || error.response.status}`,
        {
          cause: error,
        },
      );
    }
    throw new Error('Failed to start workflow', { cause: error });
  }
  if (!data?.success) throw new Error(data?.error || 'Failed to start workflow');
  return data as StartDeploymentResponse;
}

/** GET /api/workflow/deployment/status/{id}; null for 'Workflow session not found' (a normal not-found). */
export async function fetchWorkflowStatus(sessionId: string): Promise<WorkflowStatus | null> {
  try {
    const { data } = await api.get<WorkflowStatus>(`/api/workflow/deployment/status/${enc(sessionId)}`);
    return data;
  } catch (error) {
    if (httpStatus(error) !== 404) console.error('Workflow status failed', error);
    return null;
  }
}

/** POST /api/workflow/deployment/cancel/{id}. Errors: the server's error, else 'Could not cancel the deployment'. */
export async function cancelWorkflow(sessionId: string): Promise<void> {
  try {
    await api.post(`/api/workflow/deployment/cancel/${enc(sessionId)}`);
  } catch (error) {
    throw new Error(serverError(error) ?? 'Could not cancel the deployment', { cause: error });
  }
}

export function workflowStatusStreamUrl(sessionId: string): string {
  return `/api/workflow/deployment/status/${enc(sessionId)}/stream`;
}

/** GET /api/deployment/job/{id}: the facts the failure view shows. */
export async function fetchDeployJob(id: string): Promise<DeployJobMetadata | null> {
  try {
    const { data } = await api.get<DeployJobMetadata>(`/api/deployment/job/${enc(id)}`);
    return data;
  } catch (error) {
    console.error('Deploy job details failed', error);
    return null;
  }
}

/** The deployment configuration kept with the session so a reload keeps it. */
export interface DeploymentConfig {
  owner: string;
  repo: string;
  branch: string;
  vmSize: string;
  subscriptionId: string | null;
}

export async function saveSessionState(sessionId: string, stateData: DeploymentConfig): Promise<void> {
  try {
    await api.post('/api/session/state', { sessionId, stateData });
  } catch (error) {
    console.error('Saving the session state failed', error);
  }
}

export async function loadSessionState(sessionId: string): Promise<Partial<DeploymentConfig> | null> {
  try {
    const { data } = await api.get<{ exists: boolean; stateData?: Partial<DeploymentConfig> }>(
      `/api/session/state/${enc(sessionId)}`,
    );
    return data?.exists && data.stateData ? data.stateData : null;
  } catch {
    return null;
  }
}
