/** What GET /api/deployment/job/{id} answers: the facts the failure view shows. */
export interface DeployJobMetadata {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  workspace_name: string;
  branch: string;
  commit_sha: string | null;
  health_check_failed: boolean;
  failed_services: string[];
  container_logs: Record<string, string>;
  failure_reason: string | null;
  port_discovery_failed: boolean;
  expected_services: string[];
  service_urls: Record<string, string>;
  error: string | null;
}

export const NO_PORTS_MESSAGE =
  'None of these services exposed any ports. Check your docker-compose.yml port mappings.';
export const NON_DOCKERIZED_MESSAGE =
  'Non-dockerized apps are unsupported: add a Dockerfile or a docker-compose.yml to the repository root';
export const PLATFORM_RESTARTED_MESSAGE = 'The platform restarted during this deployment';
