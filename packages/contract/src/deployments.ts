import { z } from 'zod';
import { serviceUrlsSchema } from './schemaKit.js';

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
  error: z.string().nullable(),
});
export type DeployJobMetadata = z.infer<typeof deployJobMetadataSchema>;
export const deploymentJobParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const NO_PORTS_MESSAGE =
  'None of these services exposed any ports. Check your docker-compose.yml port mappings.';
export const NON_DOCKERIZED_MESSAGE =
  'Non-dockerized apps are unsupported: add a Dockerfile or a docker-compose.yml to the repository root';
export const PLATFORM_RESTARTED_MESSAGE = 'The platform restarted during this deployment';
