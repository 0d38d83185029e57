/** Readers of the command line's arguments: each refuses a bad value with a sentence commander shows (exit 2). */
import {
  deployOwnerSchema,
  deployRepoSchema,
  envKeyProblem,
  VM_SIZE_IDS,
  workspaceNameSchema,
} from '@slipway/contract';
import { InvalidArgumentError } from 'commander';

export type VmSizeId = (typeof VM_SIZE_IDS)[number];

/** `owner/repo`, each part by GitHub's rules (the contract's schemas). */
export function parseRepository(value: string): { owner: string; repo: string } {
  const [owner, repo, ...rest] = value.split('/');
  if (
    rest.length > 0 ||
    !deployOwnerSchema.safeParse(owner).success ||
    !deployRepoSchema.safeParse(repo).success
  ) {
    throw new InvalidArgumentError(`"${value}" is not OWNER/REPO`);
  }
  return { owner: owner!, repo: repo! };
}

/** `KEY=VALUE`: the value is everything after the first `=`, kept as typed (it may be empty or hold `=`). */
export function parseAssignment(value: string): { key: string; value: string } {
  const equals = value.indexOf('=');
  if (equals < 0) throw new InvalidArgumentError(`"${value}" is not KEY=VALUE`);
  const key = value.slice(0, equals);
  const problem = envKeyProblem(key);
  if (problem) throw new InvalidArgumentError(problem);
  return { key, value: value.slice(equals + 1) };
}

export function parseVmSize(value: string): VmSizeId {
  if (!(VM_SIZE_IDS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`choose ${VM_SIZE_IDS.join(' or ')}`);
  }
  return value as VmSizeId;
}

export function parseKey(value: string): string {
  const problem = envKeyProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

export function parseLineCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 5000) {
    throw new InvalidArgumentError('give a whole number of lines from 1 to 5000');
  }
  return count;
}

/** A variadic argument's parser, applied value by value. */
export function collect<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] | undefined) => [...(previous ?? []), parse(value)];
}

/** A workspace name by the contract's rule (a repository name), so a bad one is a usage error, not a 404. */
export function parseWorkspace(value: string): string {
  const parsed = workspaceNameSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? 'Invalid workspace name');
  return value;
}

/** A backup id (a UUID) or its first characters. */
export function parseBackupId(value: string): string {
  if (!/^[0-9a-f][0-9a-f-]{0,35}$/i.test(value))
    throw new InvalidArgumentError(`"${value.slice(0, 60)}" is not a backup id`);
  return value;
}
