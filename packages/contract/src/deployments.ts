import { z } from 'zod';
import { uuidParam } from './pathParams.js';
import { serviceUrlsSchema } from './schemaKit.js';

/**
 * What a service is doing, as the deployment last saw it: `exited` carries its exit code, `oom_killed` means
 * the kernel killed it for using more memory than its limit, `completed` is a one-shot service that ended with 0.
 */
export const SERVICE_STATES = [
  'starting',
  'healthy',
  'running',
  'completed',
  'exited',
  'restarting',
  'oom_killed',
  'unhealthy',
] as const;
export type ServiceStateName = (typeof SERVICE_STATES)[number];

export const serviceStateSchema = z.strictObject({
  service: z.string(),
  state: z.enum(SERVICE_STATES),
  exit_code: z.number().int().nullable(),
  /** Public URL; only services that publish ports have one. */
  url: z.string().nullable(),
  /** Why it failed, in one plain sentence; null when it did not. */
  message: z.string().nullable(),
});
export type ServiceState = z.infer<typeof serviceStateSchema>;

/** What GET /api/deployment/job/{id} answers: the facts the failure view shows. */
export const deployJobMetadataSchema = z.strictObject({
  id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  workspace_name: z.string(),
  branch: z.string(),
  commit_sha: z.string().nullable(),
  health_check_failed: z.boolean(),
  failed_services: z.array(z.string()),
  container_logs: z.record(z.string(), z.string()),
  failure_reason: z.string().nullable(),
  port_discovery_failed: z.boolean(),
  expected_services: z.array(z.string()),
  service_urls: serviceUrlsSchema,
  /** Every service's state when the deployment ended (empty before it checked them). */
  service_states: z.array(serviceStateSchema),
  error: z.string().nullable(),
});
export type DeployJobMetadata = z.infer<typeof deployJobMetadataSchema>;
export const deploymentJobParamsSchema = z.object({ id: uuidParam('deployment job id') });

export const NO_PORTS_MESSAGE =
  'None of these services exposed any ports. Check your docker-compose.yml port mappings.';
export const NON_DOCKERIZED_MESSAGE =
  'Non-dockerized apps are unsupported: add a Dockerfile or a docker-compose.yml to the repository root';
export const PLATFORM_RESTARTED_MESSAGE = 'The platform restarted during this deployment';
/** The failure reason of a deployment its owner cancelled. */
export const DEPLOYMENT_CANCELLED_MESSAGE = 'Deployment cancelled';
