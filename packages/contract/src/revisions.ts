import { z } from 'zod';
import { uuidParam, workspaceNameParam } from './pathParams.js';
import { timestampSchema } from './schemaKit.js';
import { workflowSessionIdSchema } from './workflow.js';

/** How a deployment was started ('push': a push to the workspace's branch, with deploy on push on). */
export const DEPLOYMENT_TRIGGERS = ['deploy', 'redeploy', 'rollback', 'push'] as const;
export type DeploymentTrigger = (typeof DEPLOYMENT_TRIGGERS)[number];

/** A deployment's trigger from its stored workflow type ('deploy' for anything older or unknown). */
export const triggerOf = (workflowType: string): DeploymentTrigger =>
  (DEPLOYMENT_TRIGGERS as readonly string[]).includes(workflowType)
    ? (workflowType as DeploymentTrigger)
    : 'deploy';

/** One successful deployment of a workspace: a version it can go back to while its images are kept. */
export const revisionSchema = z.strictObject({
  deployment_id: z.string(),
  commit_sha: z.string().nullable(),
  branch: z.string(),
  trigger: z.enum(DEPLOYMENT_TRIGGERS),
  /** For a rollback: the deployment whose version it started again. */
  rollback_of: z.string().nullable(),
  deployed_by: z.string(),
  deployed_at: timestampSchema,
  duration_seconds: z.number().nullable(),
  /** The version running now. */
  current: z.boolean(),
  /** Its images and project are still kept, so a rollback to it needs no build. */
  can_roll_back: z.boolean(),
});
export type Revision = z.infer<typeof revisionSchema>;

/** GET /api/workspace-revisions/{name}: newest first. */
export const workspaceRevisionsSchema = z.strictObject({
  /** The repository the workspace deploys (a rollback's progress page is /deploy/{owner}/{repo}). */
  owner: z.string(),
  repo: z.string(),
  revisions: z.array(revisionSchema),
  /** How many versions' images are kept (DEPLOY_KEEP_VERSIONS). */
  kept: z.number().int(),
});
export type WorkspaceRevisions = z.infer<typeof workspaceRevisionsSchema>;

export const rollbackParamsSchema = z.object({
  name: workspaceNameParam,
  deploymentId: uuidParam('deployment id'),
});
/** POST /api/workspace-rollback/{name}/{deploymentId}: the session its progress is followed under. */
export const rollbackRequestSchema = z.object({ sessionId: workflowSessionIdSchema });

/** The most replicas a service may run; the Replicas control and the deployment's policy both stop here. */
export const MAX_SERVICE_REPLICAS = 10;
export const serviceReplicasParamsSchema = z.object({
  name: workspaceNameParam,
  service: z
    .string()
    .regex(
      /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,62}$/,
      'A service name is letters, digits, dots, dashes and underscores',
    ),
});
/**
 * PUT /api/workspace-service-replicas/{name}/{service}: how many containers the service runs from now on (it
 * overrides the Compose file's `deploy.replicas`), applied by a blue/green redeploy followed under `sessionId`.
 */
export const serviceReplicasRequestSchema = z.object({
  replicas: z.number().int().min(1).max(MAX_SERVICE_REPLICAS),
  sessionId: workflowSessionIdSchema,
});
export type ServiceReplicasRequest = z.infer<typeof serviceReplicasRequestSchema>;
