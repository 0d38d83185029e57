import { API_TOKEN_PATTERN } from '@slipway/contract';
import { CliError, EXIT, UsageError } from '../cliErrors.js';
import { writeStoredLogin } from '../settings.js';
import { SlipwayClient } from '../slipwayClient.js';
import type { CommandContext } from './commandContext.js';

/** `login --json`. */
export interface LoginResult {
  url: string;
  login: string;
  config_file: string;
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
  const user = await new SlipwayClient({ url: ctx.target.url, token }).call('currentUser');
  await writeStoredLogin(ctx.configFile, { url: ctx.target.url, token });
  ctx.output.result<LoginResult>(
    { url: ctx.target.url, login: user.login, config_file: ctx.configFile },
    (r) => `Signed in to ${r.url} as ${r.login} (kept in ${r.config_file})`,
  );
  return EXIT.ok;
}

export async function whoami(ctx: CommandContext): Promise<number> {
  if (!ctx.target.token)
    throw new CliError(`Not signed in to ${ctx.target.url}: run \`slipway login\` or set SLIPWAY_TOKEN`);
  const user = await ctx.client.call('currentUser');
  ctx.output.result<WhoamiResult>(
    { url: ctx.target.url, user: { id: user.id, login: user.login, name: user.name, email: user.email } },
    (r) => `${r.user.login}${r.user.name ? ` (${r.user.name})` : ''} on ${r.url}`,
  );
  return EXIT.ok;
}
