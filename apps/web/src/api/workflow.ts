import {
  type DeployJobMetadata,
  MAX_WORKSPACE_NODES,
  type StartDeploymentResponse,
  type VM_SIZE_IDS,
  type WorkflowDefinition,
  type WorkflowStatus,
} from '@slipway/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import axios from 'axios';
import { httpStatus, serverError } from './errors';
import { failingWith } from './failingWith';
import { callRoute, routeUrl } from './routeClient';

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
    const definition = await callRoute('workflowDefinition');
    return definition.steps.length > 0 ? definition : DEFAULT_WORKFLOW;
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
  /** How many VMs of the size the workspace runs on (1–5). */
  nodes: number;
}

/**
 * POST /api/workflow/deployment/start. Errors: the server's error, else 'Workflow start
 * failed: {status text}', else 'Failed to start workflow'.
 */
export async function startWorkflow(input: StartWorkflowInput): Promise<StartDeploymentResponse> {
  let data: StartDeploymentResponse;
  try {
    // The size comes from the stored selection as text; the server checks it against the catalogue.
    const body = input as StartWorkflowInput & { vmSize: (typeof VM_SIZE_IDS)[number] };
    data = await callRoute('startDeployment', { body, config: { sameAnswerIfRepeated: true } });
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
  // The contract's answer is always a success; a server that says otherwise is still read as a failure.
  if (!data.success) throw new Error('Failed to start workflow');
  return data;
}

/** GET /api/workflow/deployment/status/{id}; null for 'Workflow session not found' (a normal not-found). */
export async function fetchWorkflowStatus(sessionId: string): Promise<WorkflowStatus | null> {
  try {
    return await callRoute('deploymentStatus', { params: { sessionId } });
  } catch (error) {
    if (httpStatus(error) !== 404) console.error('Workflow status failed', error);
    return null;
  }
}

/**
 * The deploy screen's first look: whether this session already has a deployment (a reload), so it
 * goes straight to the live view. Asked once each time the screen opens for a session.
 */
export function useExistingWorkflow(sessionId: string | null) {
  return useQuery({
    queryKey: ['workflow', 'exists', sessionId] as const,
    queryFn: async () => (sessionId ? (await fetchWorkflowStatus(sessionId)) !== null : false),
    enabled: Boolean(sessionId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

export const workflowStatusKey = (sessionId: string) => ['workflow', 'status', sessionId] as const;

/**
 * A deployment's status by GET .../status/{id}: fetched each time it is enabled, then as often as
 * `pollEvery` says for the status at hand (the caller's fallback when the live stream is gone). A 'not found' keeps the status
 * already known, which the stream may have written into the cache.
 */
export function useWorkflowStatusQuery(
  sessionId: string,
  enabled: boolean,
  pollEvery: (status: WorkflowStatus | null | undefined) => number | false,
) {
  const queryClient = useQueryClient();
  const queryKey = workflowStatusKey(sessionId);
  return useQuery({
    queryKey,
    queryFn: async () =>
      (await fetchWorkflowStatus(sessionId)) ??
      queryClient.getQueryData<WorkflowStatus | null>(queryKey) ??
      null,
    enabled,
    staleTime: 0,
    refetchInterval: (query) => pollEvery(query.state.data),
  });
}

/** POST /api/workflow/deployment/cancel/{id}. Errors: the server's error, else 'Could not cancel the deployment'. */
export async function cancelWorkflow(sessionId: string): Promise<void> {
  await failingWith('Could not cancel the deployment', () =>
    callRoute('cancelDeployment', { params: { sessionId } }),
  );
}

export function workflowStatusStreamUrl(sessionId: string): string {
  return routeUrl('deploymentStatusStream', { sessionId });
}

/** GET /api/deployment/job/{id}: the facts the failure view shows. */
export async function fetchDeployJob(id: string): Promise<DeployJobMetadata | null> {
  try {
    return await callRoute('deploymentJob', { params: { id } });
  } catch (error) {
    console.error('Deploy job details failed', error);
    return null;
  }
}

/** A node count kept with a session before nodes were chosen (or not a count at all) is one node. */
const storedNodes = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_WORKSPACE_NODES
    ? value
    : 1;

/** The deployment configuration kept with the session so a reload keeps it. */
export interface DeploymentConfig {
  owner: string;
  repo: string;
  branch: string;
  vmSize: string;
  subscriptionId: string | null;
  /** How many VMs of the size the workspace runs on (1–5). */
  nodes: number;
}

export async function saveSessionState(sessionId: string, stateData: DeploymentConfig): Promise<void> {
  try {
    await callRoute('saveSessionState', { body: { sessionId, stateData: { ...stateData } } });
  } catch (error) {
    console.error('Saving the session state failed', error);
  }
}

export async function loadSessionState(sessionId: string): Promise<Partial<DeploymentConfig> | null> {
  try {
    const state = await callRoute('getSessionState', { params: { sessionId } });
    // What this client stored (saveSessionState): the server keeps it as an opaque record.
    return state.exists ? (state.stateData as Partial<DeploymentConfig>) : null;
  } catch {
    return null;
  }
}

/**
 * The configuration a session deploys: the one given (then kept with the session on the server so a
 * reload keeps it), else the session's stored one for this repository, else `fallback`'s (then kept
 * too); null when there is none. Resolved again each time the deploy screen opens.
 */
export function useSessionDeploymentConfig(
  sessionId: string | null,
  owner: string,
  repo: string,
  given: DeploymentConfig | null,
  fallback: () => Promise<DeploymentConfig | null>,
) {
  return useQuery({
    queryKey: ['workflow', 'session-config', sessionId, owner, repo, given] as const,
    queryFn: async (): Promise<DeploymentConfig | null> => {
      if (!sessionId) return null;
      if (given) {
        await saveSessionState(sessionId, given);
        return given;
      }
      const stored = await loadSessionState(sessionId);
      if (stored?.branch && stored.vmSize && stored.owner === owner && stored.repo === repo) {
        return {
          owner,
          repo,
          branch: stored.branch,
          vmSize: stored.vmSize,
          subscriptionId: stored.subscriptionId ?? null,
          nodes: storedNodes(stored.nodes),
        };
      }
      const next = await fallback();
      if (next) await saveSessionState(sessionId, next);
      return next;
    },
    enabled: Boolean(sessionId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

export function useWorkflowDefinition() {
  return useQuery({ queryKey: ['workflow', 'deployment'], queryFn: fetchWorkflowDefinition });
}
