import { z } from 'zod';
import { serviceUrlsSchema, successSchema, timestampSchema } from './schemaKit.js';
import { vmSizeIdSchema } from './vmSizeSchemas.js';
import { workspaceNodeCountSchema } from './workspaceNodes.js';

/** The deployment workflow's steps, in order. The web app keys its log-stream switching off these names. */
export const DEPLOYMENT_STEPS = [
  { name: 'provision-vm', description: 'Prepare the virtual machine for the workspace' },
  { name: 'fetch-source', description: 'Clone the selected branch of the repository' },
  { name: 'detect-project', description: 'Find the compose file or Dockerfile' },
  { name: 'policy-check', description: 'Check the compose configuration against the sandbox rules' },
  { name: 'deploy-application', description: 'Build the images and start the containers' },
  { name: 'discover-ports', description: 'Find the ports the services listen on' },
  { name: 'verify-deployment', description: 'Check that every service answers' },
  { name: 'configure-routing', description: 'Publish the services over HTTPS' },
  { name: 'post-deployment', description: 'Mark the workspace live and record the deployed version' },
] as const;

export type DeploymentStepName = (typeof DEPLOYMENT_STEPS)[number]['name'];
export const STEP_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
export const WORKFLOW_STATES = ['started', 'completed', 'failed'] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

export const workflowStepSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  status: z.enum(STEP_STATUSES),
  started_at: timestampSchema.nullish(),
  finished_at: timestampSchema.nullish(),
  error: z.string().nullish(),
});
export type WorkflowStep = z.infer<typeof workflowStepSchema>;

export const workflowDefinitionSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  steps: z.array(workflowStepSchema),
});
export type WorkflowDefinition = z.infer<typeof workflowDefinitionSchema>;

/** GitHub's rules: owner up to 39 letters, digits and hyphens; repository names letters, digits, `.`, `_`, `-`. */
export const deployOwnerSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, { error: 'Invalid repository owner' });
export const deployRepoSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'Invalid repository name' })
  .refine((name) => name !== '.' && name !== '..', { error: 'Invalid repository name' });

/**
 * A git branch name (git check-ref-format rules). Shell metacharacters are legal in refs and are passed
 * as one literal argument; a leading '-' could be read as an option, so it is refused.
 */
export const deployBranchSchema = z
  .string()
  .min(1, { error: 'Branch is required' })
  .max(255, { error: 'Branch name is too long' })
  .refine((b) => !b.startsWith('-'), { error: 'Branch names may not start with "-"' })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  .refine((b) => !/[\x00-\x20\x7f~^:?*[\\]/.test(b), { error: 'Invalid branch name' })
  .refine(
    (b) =>
      !b.includes('..') &&
      !b.includes('@{') &&
      !b.includes('//') &&
      b !== '@' &&
      !b.startsWith('/') &&
      !b.endsWith('/') &&
      !b.endsWith('.') &&
      !b.endsWith('.lock') &&
      !b.split('/').some((part) => part.startsWith('.')),
    { error: 'Invalid branch name' },
  );

export const workflowSessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: 'Invalid session id' });

export const startDeploymentRequestSchema = z.object({
  sessionId: workflowSessionIdSchema,
  owner: deployOwnerSchema,
  repo: deployRepoSchema,
  branch: deployBranchSchema,
  vmSize: vmSizeIdSchema.optional(),
  subscriptionId: z.string().max(200).nullish(),
  workflowType: z.enum(['deploy', 'redeploy']).default('deploy'),
  /** How many nodes of `vmSize` the workspace runs on (1–5); left out: as it is (1 for a new workspace). */
  nodes: workspaceNodeCountSchema.optional(),
});
export type StartDeploymentRequest = z.infer<typeof startDeploymentRequestSchema>;

export const startDeploymentResponseSchema = successSchema.extend({
  sessionId: z.string(),
  deploymentId: z.string(),
});
export type StartDeploymentResponse = z.infer<typeof startDeploymentResponseSchema>;

export const deploymentMetadataOutputSchema = z.strictObject({
  service_url: z.string().nullable(),
  url: z.string().nullable(),
  urls: serviceUrlsSchema,
  output: z.string(),
});
export type DeploymentMetadataOutput = z.infer<typeof deploymentMetadataOutputSchema>;

export const workflowStatusSchema = z.strictObject({
  success: z.boolean(),
  sessionId: z.string(),
  state: z.enum(WORKFLOW_STATES),
  currentStep: z.number().int().min(0),
  currentStepName: z.string(),
  progress: z.number().min(0).max(100),
  workflowComplete: z.boolean(),
  totalSteps: z.number().int().min(0),
  steps: z.array(workflowStepSchema),
  error: z.string().nullable(),
  data: z.strictObject({
    deployJobId: z.string(),
    deploymentData: z.strictObject({ metadata: deploymentMetadataOutputSchema }),
  }),
});
export type WorkflowStatus = z.infer<typeof workflowStatusSchema>;

export const workflowSessionParamsSchema = z.object({ sessionId: workflowSessionIdSchema });
export const deployRepoParamsSchema = z.object({ owner: deployOwnerSchema, repo: deployRepoSchema });

/** The wizard's saved state: GET /api/session/state/{id}. */
export const sessionStateSchema = z.union([
  z.strictObject({ exists: z.literal(false), stateData: z.null() }),
  z.strictObject({ exists: z.literal(true), stateData: z.record(z.string(), z.unknown()) }),
]);
export const sessionStateSavedSchema = successSchema.extend({ sessionId: z.string() });
export const sessionStateDeletedSchema = successSchema.extend({ deleted: z.boolean() });
export const sessionStateExtendedSchema = z.strictObject({ extended: z.boolean() });

export const sessionStateRequestSchema = z.object({
  sessionId: workflowSessionIdSchema,
  stateData: z.record(z.string(), z.unknown()),
});

export const logStreamQuerySchema = z.object({
  log_type: z.enum(['build', 'service']).default('build'),
  initial_lines: z.coerce.number().int().min(0).max(1000).default(10),
  follow: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  service: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/)
    .optional(),
});
