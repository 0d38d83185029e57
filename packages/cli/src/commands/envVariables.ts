import { EXIT } from '../cliErrors.js';
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

/** `env unset --json`. */
export interface EnvUnsetResult {
  workspace: string;
  deleted: number;
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

export async function envUnset(
  ctx: CommandContext,
  args: { workspace: string; keys: string[] },
): Promise<number> {
  let deleted = 0;
  for (const key of args.keys) {
    deleted += (await ctx.client.call('deleteEnvVariable', { params: { workspace: args.workspace, key } }))
      .deleted;
  }
  ctx.output.result<EnvUnsetResult>(
    { workspace: args.workspace, deleted },
    (r) => `${r.workspace}: ${r.deleted} removed`,
  );
  return EXIT.ok;
}
