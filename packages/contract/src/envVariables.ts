import { z } from 'zod';
import { shownValue } from './pathParams.js';
import { successMessageSchema, successSchema } from './schemaKit.js';

/** A name a shell and Docker accept as an environment variable. */
export const ENV_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ENV_KEY_MAX_LENGTH = 256;
export const ENV_VALUE_MAX_BYTES = 64 * 1024;
export const ENV_MAX_VARIABLES = 200;
/** Keys plus values of one workspace, in UTF-8 bytes. */
export const ENV_MAX_TOTAL_BYTES = 512 * 1024;

/** Workspace names are repository names. */
export const WORKSPACE_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

export const workspaceNameSchema = z
  .string()
  .refine((value) => WORKSPACE_NAME_PATTERN.test(value) && value !== '.' && value !== '..', {
    error: 'Invalid workspace name: use up to 100 letters, digits, dots, dashes and underscores',
  });

/** Why a key is refused, or undefined when it is fine. */
export function envKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'A variable name is empty';
  if (key.length > ENV_KEY_MAX_LENGTH) {
    return `Variable name ${shownValue(key)} is too long (at most ${ENV_KEY_MAX_LENGTH} characters)`;
  }
  if (!ENV_KEY_PATTERN.test(key)) {
    return `Invalid variable name ${shownValue(key)}: use letters, digits and underscores, not starting with a digit`;
  }
  return undefined;
}

/** Why a value is refused, or undefined. The message names the key, never the value. */
export function envValueProblem(key: string, value: string): string | undefined {
  if (value.includes('\u0000')) {
    return `The value of ${shownValue(key)} contains a NUL character, which environment variables cannot carry`;
  }
  if (new TextEncoder().encode(value).length > ENV_VALUE_MAX_BYTES) {
    return `The value of ${shownValue(key)} is too large (at most ${ENV_VALUE_MAX_BYTES / 1024} KiB)`;
  }
  return undefined;
}

export const envKeySchema = z
  .string({ error: 'A variable name must be text' })
  .trim()
  .superRefine((key, ctx) => {
    const problem = envKeyProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Values are kept byte for byte: no trimming, newlines, quotes, `$(...)` and `${...}` included. */
export const envVariableSchema = z
  .object({
    key: envKeySchema,
    value: z.string({ error: 'A variable value must be text' }),
  })
  .superRefine(({ key, value }, ctx) => {
    const problem = envValueProblem(key, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['value'] });
  });
export type EnvVariable = z.infer<typeof envVariableSchema>;

export const uploadEnvVariablesRequestSchema = z.object({
  variables: z
    .array(envVariableSchema, { error: 'Send variables as a list of {key, value}' })
    .max(ENV_MAX_VARIABLES, {
      error: `A workspace can hold at most ${ENV_MAX_VARIABLES} environment variables`,
    }),
});
export type UploadEnvVariablesRequest = z.infer<typeof uploadEnvVariablesRequestSchema>;

export const updateEnvVariableRequestSchema = z.object({
  value: z.string({ error: 'A variable value must be text' }),
});

export const envWorkspaceParamsSchema = z.object({ workspace: workspaceNameSchema });
export const envVariableParamsSchema = envWorkspaceParamsSchema.extend({ key: envKeySchema });

/** Variables as stored: keys and values exactly as saved (the request schema's checks do not apply). */
export const envVariablesResponseSchema = z.strictObject({
  workspace_name: z.string(),
  variables: z.array(z.strictObject({ key: z.string(), value: z.string() })),
  count: z.number().int().min(0),
});
export type EnvVariablesResponse = z.infer<typeof envVariablesResponseSchema>;

export const envVariablesSavedSchema = successMessageSchema.extend({
  /** Variables the workspace holds now. */
  count: z.number().int().min(0),
  added: z.number().int().min(0),
  updated: z.number().int().min(0),
});
export type EnvVariablesSaved = z.infer<typeof envVariablesSavedSchema>;

export const envVariablesDeletedSchema = successSchema.extend({ deleted: z.number().int().min(0) });
