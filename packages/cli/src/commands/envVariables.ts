import { ApiError, CliError, EXIT, RefusedError } from '../cliErrors.js';
import { readDotenvFile } from '../dotenvFile.js';
import type { CommandContext } from './commandContext.js';

/** `env list --json`. */
export interface EnvListResult {
  workspace: string;
  variables: { key: string; value: string }[];
}

/** `env set --json` and `env import --json`: how many the workspace holds now, and how many were new or changed. */
export interface EnvSavedResult {
  workspace: string;
  count: number;
  added: number;
  updated: number;
}

/** `env unset --json`: how many were removed, and which. */
export interface EnvUnsetResult {
  workspace: string;
  deleted: number;
  removed: string[];
}

const shell = (value: string) =>
  /^[A-Za-z0-9_./:@%+,-]*$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;

export async function envList(ctx: CommandContext, args: { workspace: string }): Promise<number> {
  const answer = await ctx.client.call('listEnvVariables', { params: { workspace: args.workspace } });
  ctx.output.result<EnvListResult>({ workspace: args.workspace, variables: answer.variables }, (r) =>
    r.variables.map((v) => `${v.key}=${shell(v.value)}`),
  );
  return EXIT.ok;
}

async function save(ctx: CommandContext, workspace: string, variables: { key: string; value: string }[]) {
  const saved = await ctx.client.call('uploadEnvVariables', { params: { workspace }, body: { variables } });
  ctx.output.result<EnvSavedResult>(
    { workspace, count: saved.count, added: saved.added, updated: saved.updated },
    (r) =>
      `${workspace}: ${r.added} added, ${r.updated} updated, ${r.count} in all (a redeploy applies them)`,
  );
  return EXIT.ok;
}

/** All in one request, so a bad one leaves every variable as it was. */
export const envSet = (
  ctx: CommandContext,
  args: { workspace: string; variables: { key: string; value: string }[] },
) => save(ctx, args.workspace, args.variables);

export async function envImport(
  ctx: CommandContext,
  args: { workspace: string; file: string },
): Promise<number> {
  return save(ctx, args.workspace, await readDotenvFile(args.file));
}

/**
 * The names of the workspace's variables, without their values: the previews' list (read scope) names every
 * variable of a deployed workspace. A name that is not one (variables set before its first deployment) is read
 * from the variables themselves, which needs secrets:read.
 */
async function variableNames(ctx: CommandContext, workspace: string): Promise<Set<string>> {
  try {
    const listed = await ctx.client.call('listPreviewVariables', { params: { name: workspace } });
    return new Set(listed.map((v) => v.key));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  try {
    const listed = await ctx.client.call('listEnvVariables', { params: { workspace } });
    return new Set(listed.variables.map((v) => v.key));
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      throw new RefusedError(
        `Cannot check which variables ${workspace} holds before removing any: it is not a deployed workspace, and reading its variables needs the secrets:read scope. Nothing was removed`,
      );
    }
    throw error;
  }
}

const variables = (count: number) => `${count} variable${count === 1 ? '' : 's'}`;

/**
 * All or nothing: every key is checked first, and a missing one refuses the whole command before anything is
 * removed. (Another client could still remove one between the check and the removal: then the sentence says
 * which were removed and which were kept.)
 */
export async function envUnset(
  ctx: CommandContext,
  args: { workspace: string; keys: string[] },
): Promise<number> {
  const keys = [...new Set(args.keys)];
  const held = await variableNames(ctx, args.workspace);
  const missing = keys.filter((key) => !held.has(key));
  if (missing.length > 0) {
    throw new RefusedError(
      `${args.workspace} has no variable${missing.length === 1 ? '' : 's'} ${missing.join(', ')}: nothing was removed`,
    );
  }
  const removed: string[] = [];
  try {
    for (const key of keys) {
      await ctx.client.call('deleteEnvVariable', { params: { workspace: args.workspace, key } });
      removed.push(key);
    }
  } catch (error) {
    if (removed.length === 0 || !(error instanceof CliError)) throw error;
    const kept = keys.filter((key) => !removed.includes(key));
    throw new CliError(
      `${error.message} — removed ${removed.join(', ')} before that; ${kept.join(', ')} kept`,
      error.exitCode,
    );
  }
  ctx.output.result<EnvUnsetResult>(
    { workspace: args.workspace, deleted: removed.length, removed },
    (r) => `${r.workspace}: ${variables(r.deleted)} removed: ${r.removed.join(', ')} (a redeploy applies it)`,
  );
  return EXIT.ok;
}
