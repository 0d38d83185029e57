import {
  backupOverviewSchema,
  backupSchema,
  deployJobMetadataSchema,
  restoreSchema,
  serviceStateSchema,
} from '@slipway/contract';
import { z } from 'zod';

/** The documented --json shapes (packages/cli/README.md, "--json"), strict: a field more is a change too. */
export const urls = z.record(z.string(), z.string());
export const loginShape = z.strictObject({ url: z.string(), login: z.string(), config_file: z.string() });
export const whoamiShape = z.strictObject({
  url: z.string(),
  user: z.strictObject({
    id: z.string(),
    login: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
  }),
});
export const workspaceLine = z.strictObject({
  name: z.string(),
  repository: z.string(),
  branch: z.string(),
  status: z.string(),
  urls,
  created_at: z.string(),
});
export const workspacesShape = z.strictObject({ workspaces: z.array(workspaceLine) });
export const statusShape = z.strictObject({
  workspace: workspaceLine.extend({
    services: z.array(serviceStateSchema),
    latest_deployment: z
      .strictObject({
        id: z.string(),
        status: z.string(),
        commit_sha: z.string().nullable(),
        trigger: z.string(),
        created_at: z.string(),
      })
      .nullable(),
    last_error: z.string().nullable(),
  }),
});
export const deploymentShape = z.strictObject({
  workspace: z.string(),
  session_id: z.string(),
  deployment_id: z.string(),
  state: z.enum(['completed', 'failed']),
  error: z.string().nullable(),
  urls,
  failure: deployJobMetadataSchema.nullable(),
  build_log: z.array(z.string()),
});
export const rollbackShape = deploymentShape.extend({ rollback_of: z.string() });
export const logLine = z.strictObject({
  timestamp: z.string(),
  service: z.string(),
  source: z.string(),
  message: z.string(),
});
export const logsShape = z.strictObject({ lines: z.array(logLine) });
export const envListShape = z.strictObject({
  workspace: z.string(),
  variables: z.array(z.strictObject({ key: z.string(), value: z.string() })),
});
export const envSavedShape = z.strictObject({
  workspace: z.string(),
  count: z.number(),
  added: z.number(),
  updated: z.number(),
});
export const envUnsetShape = z.strictObject({
  workspace: z.string(),
  deleted: z.number(),
  removed: z.array(z.string()),
});
export const logoutShape = z.strictObject({
  config_file: z.string(),
  removed: z.boolean(),
  url: z.string().nullable(),
});
export const deleteShape = z.strictObject({
  workspace: z.string(),
  deleted: z.literal(true),
  message: z.string(),
});
export const backupListShape = backupOverviewSchema.extend({ workspace: z.string() }).strict();
export const backupShape = z.strictObject({ workspace: z.string(), backup: backupSchema });
export const restoreShape = z.strictObject({ workspace: z.string(), restore: restoreSchema });
