import { z } from 'zod';
import { textParam } from './pathParams.js';

/** Owner and repository names as GitHub allows them; also what the local directory layout accepts. */
export const REPO_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

export const isValidRepoName = (value: string) =>
  REPO_NAME_PATTERN.test(value) && value !== '.' && value !== '..';

const ownerView = z.strictObject({ login: z.string(), avatar_url: z.string() });

/** GitHub's repository object, reduced to the fields the screens read (the same in local mode). */
export const repositorySchema = z.strictObject({
  id: z.number(),
  name: z.string(),
  full_name: z.string(),
  owner: ownerView,
  private: z.boolean(),
  description: z.string().nullable(),
  language: z.string().nullable(),
  stargazers_count: z.number().int().min(0),
  updated_at: z.string(),
  default_branch: z.string(),
  html_url: z.string(),
});
export type Repository = z.infer<typeof repositorySchema>;

export const branchSchema = z.strictObject({ name: z.string(), commit: z.strictObject({ sha: z.string() }) });
export type Branch = z.infer<typeof branchSchema>;

/** One entry of GitHub's contents API; a directory answers with an array of these (without `content`). */
export const contentEntrySchema = z.strictObject({
  type: z.enum(['file', 'dir', 'symlink', 'submodule']),
  name: z.string(),
  path: z.string(),
  sha: z.string(),
  size: z.number().int().min(0),
  html_url: z.string().nullable(),
  download_url: z.string().nullable(),
  /** Files only: the bytes, base64 ('none' with empty content above GitHub's 1 MB limit). */
  encoding: z.enum(['base64', 'none']).optional(),
  content: z.string().optional(),
  /** Symlinks only: where the link points (never followed). */
  target: z.string().optional(),
});
export type ContentEntry = z.infer<typeof contentEntrySchema>;

export const contentsSchema = z.union([contentEntrySchema, z.array(contentEntrySchema)]);
export type Contents = z.infer<typeof contentsSchema>;

export const installationSchema = z.strictObject({
  id: z.number(),
  account: ownerView.nullable(),
  app_slug: z.string().nullable(),
  target_type: z.string().nullable(),
  repository_selection: z.string().nullable(),
  html_url: z.string().nullable(),
});
export type Installation = z.infer<typeof installationSchema>;

/** Names are checked by the provider with readable messages; here they only need to be text a name can be. */
export const repositoryParamsSchema = z.object({
  owner: textParam('repository owner', 100),
  repo: textParam('repository name', 100),
});
/** `*` is the path inside the repository (Fastify's wildcard parameter); empty for its root. */
export const contentsParamsSchema = repositoryParamsSchema.extend({
  '*': z.union([z.literal(''), textParam('path inside the repository', 4096)]).optional(),
});

/** GET .../branches?page=&per_page= — GitHub's own paging, at most 100 per page. */
export const branchesQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'The page must be a number' })
    .int()
    .min(1, { error: 'Pages start at 1' })
    .max(10_000)
    .default(1),
  per_page: z.coerce
    .number({ error: 'The page size (per_page) must be a number' })
    .int()
    .min(1, { error: 'The page size (per_page) must be between 1 and 100' })
    .max(100, { error: 'The page size (per_page) must be between 1 and 100' })
    .default(30),
});
export type BranchesQuery = z.infer<typeof branchesQuerySchema>;

/** A branch, tag or commit to read from. Never an option of git: a leading '-' is refused. */
export const gitRefSchema = z
  .string()
  .min(1, { error: 'The branch name is empty' })
  .max(255, { error: 'The branch name is too long' })
  .refine((value) => !value.startsWith('-'), { error: "A branch name cannot start with '-'" })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), {
    error: 'The branch name contains control characters',
  });

export const contentsQuerySchema = z.object({ ref: gitRefSchema.optional() });
