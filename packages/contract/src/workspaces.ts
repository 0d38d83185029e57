import { z } from 'zod';

/** A workspace as the dashboard shows it (spec, entities: Workspace). */
export interface WorkspaceSummary {
  workspace_name: string;
  repo_url: string;
  repo_owner: string;
  repo_name: string;
  branch: string;
  status: string;
  vm_config: { vm_size: string };
  service_urls: Record<string, string>;
  created_at: string;
  docker_image_name: string | null;
  log_watcher: { last_error: string | null; last_error_time: string | null; status: string };
}

export interface WorkspaceContainer {
  id: string;
  name: string;
  service: string;
  image: string;
  state: string;
  status: string;
}

export interface WorkspaceDetails extends WorkspaceSummary {
  services: string[];
  containers: WorkspaceContainer[];
  latest_deployment: { id: string; status: string; commit_sha: string | null; created_at: string } | null;
}

export interface WorkspaceLogEntry {
  timestamp: string;
  service: string;
  message: string;
  source: string;
  container_id: string | null;
}

/** One line of `/api/workspace-logs-stream`: `data: ${timestamp}\t${service}\t${JSON payload}`. */
export interface WorkspaceStreamPayload {
  log: string;
  source: string;
  container_id: string | null;
}

/** `follow` left out means follow (it is a stream); `follow=` or `follow=false` means history only. */
const followParam = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === undefined || value === 'true' || value === '1');

export const workspaceLogsQuerySchema = z.object({
  lines: z.coerce.number().int().min(1).max(5000).default(100),
  service: z.string().max(200).optional(),
});

export const workspaceLogStreamQuerySchema = z.object({
  follow: followParam,
  initial_lines: z.coerce.number().int().min(0).max(5000).default(50),
  service: z
    .string()
    .max(200)
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export const workspaceNameParamSchema = z.object({ name: z.string().min(1).max(200) });
