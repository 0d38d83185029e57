import { API_TOKEN_PATTERN } from '@slipway/contract';
import { EXIT, RefusedError, UsageError } from '../cliErrors.js';
import { removeStoredLogin, writeStoredLogin } from '../settings.js';
import { SlipwayClient } from '../slipwayClient.js';
import type { CommandContext } from './commandContext.js';

/** `login --json`. */
export interface LoginResult {
  url: string;
  login: string;
  config_file: string;
}

/** `logout --json`: the file, whether there was one to remove, and the server of the login it held. */
export interface LogoutResult {
  config_file: string;
  removed: boolean;
  /** The server the removed login was for; null when there was none or the file was damaged. */
  url: string | null;
}

/** `whoami --json`. */
export interface WhoamiResult {
  url: string;
  user: { id: string; login: string; name: string | null; email: string | null };
}

export async function login(ctx: CommandContext, args: { token: string | undefined }): Promise<number> {
  let token = args.token?.trim();
  if (!token) {
    if (!ctx.ask) throw new UsageError('Pass --token (stdin is not a terminal to ask on)');
    token = (
      await ctx.ask(`API token for ${ctx.target.url} (Account Settings → API Tokens): `, { secret: true })
    ).trim();
  }
  if (!API_TOKEN_PATTERN.test(token)) {
    throw new UsageError(
      'That is not a Slipway API token: they start with slw_ followed by 40 letters and digits',
    );
  }
  const user = await new SlipwayClient({ ...ctx.target, token }).call('currentUser');
  await writeStoredLogin(ctx.configFile, { url: ctx.target.url, token });
  ctx.output.result<LoginResult>(
    { url: ctx.target.url, login: user.login, config_file: ctx.configFile },
    (r) => `Signed in to ${r.url} as ${r.login} (kept in ${r.config_file})`,
  );
  return EXIT.ok;
}

export async function whoami(ctx: CommandContext): Promise<number> {
  if (!ctx.target.token)
    throw new RefusedError(`Not signed in to ${ctx.target.url}: run \`slipway login\` or set SLIPWAY_TOKEN`);
  const user = await ctx.client.call('currentUser');
  ctx.output.result<WhoamiResult>(
    { url: ctx.target.url, user: { id: user.id, login: user.login, name: user.name, email: user.email } },
    (r) => `${r.user.login}${r.user.name ? ` (${r.user.name})` : ''} on ${r.url}`,
  );
  return EXIT.ok;
}

/**
 * Forgets the kept login: removes the config file (a damaged one too). The token itself stays valid until it
 * is revoked in Account Settings → API Tokens: tokens are a person's to revoke, never a token's (tokenRules.ts).
 */
export async function logout(ctx: CommandContext): Promise<number> {
  const removed = await removeStoredLogin(ctx.configFile);
  const url = ctx.stored.kind === 'kept' ? ctx.stored.login.url : null;
  ctx.output.result<LogoutResult>({ config_file: ctx.configFile, removed, url }, (r) => {
    if (!r.removed) return `No login was kept (${r.config_file} does not exist)`;
    if (!r.url) return `Removed ${r.config_file}, which held no usable login`;
    return [
      `Signed out of ${r.url}: removed ${r.config_file}`,
      'The token itself works until it is revoked (Account Settings → API Tokens).',
    ];
  });
  if (process.env.SLIPWAY_TOKEN?.trim()) {
    ctx.output.note('SLIPWAY_TOKEN is still set in this environment: commands will go on using it.');
  }
  return EXIT.ok;
}
