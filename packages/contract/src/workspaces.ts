import { z } from 'zod';
import { serviceStateSchema } from './deployments.js';
import { workspaceNameParam } from './pathParams.js';
import { DEPLOYMENT_TRIGGERS } from './revisions.js';
import { serviceUrlsSchema, successMessageSchema, timestampSchema } from './schemaKit.js';

/** A workspace as the dashboard shows it (spec, entities: Workspace). */
export const workspaceSummarySchema = z.strictObject({
  workspace_name: z.string(),
  repo_url: z.string(),
  repo_owner: z.string(),
  repo_name: z.string(),
  branch: z.string(),
  status: z.string(),
  vm_config: z.strictObject({ vm_size: z.string() }),
  service_urls: serviceUrlsSchema,
  created_at: timestampSchema,
  docker_image_name: z.string().nullable(),
  log_watcher: z.strictObject({
    last_error: z.string().nullable(),
    last_error_time: timestampSchema.nullable(),
    status: z.string(),
  }),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

export const workspaceContainerSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  service: z.string(),
  image: z.string(),
  state: z.string(),
  status: z.string(),
});
export type WorkspaceContainer = z.infer<typeof workspaceContainerSchema>;

export const workspaceDetailsSchema = workspaceSummarySchema.extend({
  services: z.array(z.string()),
  containers: z.array(workspaceContainerSchema),
  /** Each service's state now, as its container is (GET /api/workspace-details only). */
  service_states: z.array(serviceStateSchema),
  latest_deployment: z
    .strictObject({
      id: z.string(),
      status: z.string(),
      commit_sha: z.string().nullable(),
      /** How it was started: deploy, redeploy, rollback, or push (deploy on push). */
      trigger: z.enum(DEPLOYMENT_TRIGGERS),
      created_at: timestampSchema,
    })
    .nullable(),
});
export type WorkspaceDetails = z.infer<typeof workspaceDetailsSchema>;

export const workspaceLogEntrySchema = z.strictObject({
  timestamp: timestampSchema,
  service: z.string(),
  message: z.string(),
  source: z.string(),
  container_id: z.string().nullable(),
});
export type WorkspaceLogEntry = z.infer<typeof workspaceLogEntrySchema>;

export const workspaceServicesSchema = z.strictObject({ services: z.array(z.string()) });
export const workspaceLogsSchema = z.strictObject({ logs: z.array(workspaceLogEntrySchema) });
/** DELETE /api/workspace-delete/{name}. */
export const workspaceDeletedSchema = successMessageSchema;

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

export const workspaceNameParamSchema = z.object({ name: workspaceNameParam });
