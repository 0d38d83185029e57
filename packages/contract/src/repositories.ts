import { z } from 'zod';

/** Owner and repository names as GitHub allows them; also what the local directory layout accepts. */
export const REPO_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

export const isValidRepoName = (value: string) =>
  REPO_NAME_PATTERN.test(value) && value !== '.' && value !== '..';

/** GitHub's repository object, reduced to the fields the screens read (the same in local mode). */
export interface Repository {
  id: number;
  name: string;
  full_name: string;
  owner: { login: string; avatar_url: string };
  private: boolean;
  description: string | null;
  language: string | null;
  stargazers_count: number;
  updated_at: string;
  default_branch: string;
  html_url: string;
}

export interface Branch {
  name: string;
  commit: { sha: string };
}

/** One entry of GitHub's contents API; a directory answers with an array of these (without `content`). */
export interface ContentEntry {
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  name: string;
  path: string;
  sha: string;
  size: number;
  html_url: string | null;
  download_url: string | null;
  /** Files only: the bytes, base64 ('none' with empty content above GitHub's 1 MB limit). */
  encoding?: 'base64' | 'none';
  content?: string;
  /** Symlinks only: where the link points (never followed). */
  target?: string;
}

export type Contents = ContentEntry | ContentEntry[];

export interface Installation {
  id: number;
  account: { login: string; avatar_url: string } | null;
  app_slug: string | null;
  target_type: string | null;
  repository_selection: string | null;
  html_url: string | null;
}

/** GET .../branches?page=&per_page= — GitHub's own paging, at most 100 per page. */
export const branchesQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a number' })
    .int()
    .min(1, { error: 'page starts at 1' })
    .max(10_000)
    .default(1),
  per_page: z.coerce
    .number({ error: 'per_page must be a number' })
    .int()
    .min(1, { error: 'per_page must be between 1 and 100' })
    .max(100, { error: 'per_page must be between 1 and 100' })
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
