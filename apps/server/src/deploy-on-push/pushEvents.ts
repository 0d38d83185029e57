import { z } from 'zod';

/** The fields of GitHub's `push` event that deploy on push reads; GitHub sends many more. */
const pushEventSchema = z.object({
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  repository: z.object({
    name: z.string(),
    // `login` in webhook payloads; `name` in the older shape some senders still use.
    owner: z.object({ login: z.string().optional(), name: z.string().optional() }),
  }),
});

export interface BranchPush {
  owner: string;
  repo: string;
  branch: string;
  sha: string;
  deleted: boolean;
}

/** A push to a branch, or undefined for anything else (a tag, a payload that is not a push). */
export function parseBranchPush(payload: unknown): BranchPush | undefined {
  const parsed = pushEventSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { ref, after, deleted, repository } = parsed.data;
  const owner = repository.owner.login ?? repository.owner.name;
  if (!owner || !ref.startsWith('refs/heads/')) return undefined;
  return {
    owner,
    repo: repository.name,
    branch: ref.slice('refs/heads/'.length),
    sha: after,
    deleted: deleted === true,
  };
}
