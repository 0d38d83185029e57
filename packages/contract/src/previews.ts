import { z } from 'zod';
import { envKeySchema } from './envVariables.js';
import { workspaceNameParam } from './pathParams.js';
import { serviceUrlsSchema, timestampSchema } from './schemaKit.js';
import { VM_SIZE_IDS } from './vmSizes.js';

/**
 * A preview's life: Awaiting approval (a fork's or a stranger's pull request: nothing runs until someone with
 * write access approves its head commit) → Waiting for a slot (the most previews running at once are running)
 * → Deploying → Live; or Failed (the deployment failed, or the policy refused its compose file: the cause says
 * which); Removing while its pull request closed and its parts are being taken down.
 */
export const PREVIEW_STATES = [
  'awaiting_approval',
  'waiting_for_slot',
  'deploying',
  'live',
  'failed',
  'removing',
] as const;
export type PreviewState = (typeof PREVIEW_STATES)[number];

export const PREVIEW_STATE_LABELS: Record<PreviewState, string> = {
  awaiting_approval: 'Awaiting approval',
  waiting_for_slot: 'Waiting for a slot',
  deploying: 'Deploying',
  live: 'Live',
  failed: 'Failed',
  removing: 'Removing',
};

export const PREVIEW_DEFAULTS = {
  enabled: false,
  /** The smallest VM size. */
  vm_size: VM_SIZE_IDS[0],
  max_running: 3,
  inactivity_days: 7,
} as const;

/** A preview workspace is named `pr-{number}-{workspace}`, so its hosts are `{service}-pr-{number}-{workspace}`. */
export const previewWorkspaceName = (workspace: string, number: number) => `pr-${number}-${workspace}`;

export const previewSettingsSchema = z.object({
  /** Off by default: no pull request runs anything until the owner turns previews on. */
  enabled: z.boolean(),
  vm_size: z.enum(VM_SIZE_IDS, { error: 'Choose one of the VM sizes' }),
  /** Beyond this many, a new preview waits (Waiting for a slot) until one is removed. */
  max_running: z
    .number({ error: 'Enter a number of previews' })
    .int({ error: 'Enter a whole number of previews' })
    .min(1, { error: 'At least one preview must be able to run' })
    .max(20, { error: 'At most 20 previews can run at once' }),
  /** The sweep removes a preview whose last activity is older than this. */
  inactivity_days: z
    .number({ error: 'Enter a number of days' })
    .int({ error: 'Enter a whole number of days' })
    .min(1, { error: 'At least one day' })
    .max(90, { error: 'At most 90 days' }),
});
export type PreviewSettings = z.infer<typeof previewSettingsSchema>;

/** PUT takes any of the fields; the others keep their values. */
export const updatePreviewSettingsSchema = previewSettingsSchema.partial();
export type UpdatePreviewSettings = z.input<typeof updatePreviewSettingsSchema>;

/**
 * The largest pull request number Slipway takes, from the API and from GitHub's deliveries alike: GitHub's own
 * numbers are 32-bit integers, and so is the previews table's column.
 */
export const MAX_PULL_REQUEST_NUMBER = 1_000_000_000;

export const previewParamsSchema = z.object({
  name: workspaceNameParam,
  number: z.coerce
    .number({ error: 'A pull request number is a whole number' })
    .int({ error: 'A pull request number is a whole number' })
    .min(1, { error: 'A pull request number is a whole number' })
    .max(MAX_PULL_REQUEST_NUMBER, {
      error: `A pull request number is a whole number up to ${MAX_PULL_REQUEST_NUMBER.toLocaleString('en-US')}`,
    }),
});

export const previewSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  /** The pull request's head branch (in a fork: the fork's branch). */
  branch: z.string(),
  head_sha: z.string(),
  author: z.string(),
  from_fork: z.boolean(),
  /** Whether its head commit needs someone with write access to approve it before it runs. */
  needs_approval: z.boolean(),
  /** The head commit an approval was given for; null when none (or not needed). */
  approved_sha: z.string().nullable(),
  state: z.enum(PREVIEW_STATES),
  /** Why it is not Live, in a sentence (a policy refusal, a failed build, the slot limit); null when fine. */
  cause: z.string().nullable(),
  /** The preview's own workspace, for its logs, health and alerts. */
  workspace: z.string(),
  urls: serviceUrlsSchema,
  /** Its pull request on GitHub; null in local mode. */
  pull_request_url: z.string().nullable(),
  created_at: timestampSchema,
  last_activity_at: timestampSchema,
});
export type Preview = z.infer<typeof previewSchema>;

/** A variable as previews see it: never its values, only whether previews get it and which value. */
export const previewVariableSchema = z.object({
  key: z.string(),
  /** Previews get this variable (its preview value when there is one, else production's). */
  also_for_previews: z.boolean(),
  has_preview_value: z.boolean(),
});
export type PreviewVariable = z.infer<typeof previewVariableSchema>;

export const previewVariableParamsSchema = z.object({
  name: workspaceNameParam,
  key: envKeySchema,
});

/**
 * `also_for_previews` on its own hands production's value to previews; `preview_value` (a string) gives
 * previews their own value instead, and with it previews get the variable; null removes the preview value.
 */
export const updatePreviewVariableSchema = z.object({
  also_for_previews: z.boolean().optional(),
  // Checked as any variable's value (size, no NUL) by the server, which knows the key it goes with.
  preview_value: z.string({ error: 'A variable value must be text' }).nullable().optional(),
});
export type UpdatePreviewVariable = z.input<typeof updatePreviewVariableSchema>;

/** The comment that asks Slipway to run a stranger's pull request, from someone with write access. */
export const PREVIEW_APPROVAL_COMMAND = '/slipway preview';
