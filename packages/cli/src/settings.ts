import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CliError } from './cliErrors.js';

export const DEFAULT_URL = 'http://localhost:3000';

/** What `slipway login` keeps: the server and the token that opens it. */
const storedLoginSchema = z.object({ url: z.string(), token: z.string() });
export type StoredLogin = z.infer<typeof storedLoginSchema>;

/** `$XDG_CONFIG_HOME/slipway/config.json`, `~/.config/slipway/config.json` without it. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(base, 'slipway', 'config.json');
}

export async function readStoredLogin(file: string): Promise<StoredLogin | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = storedLoginSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new CliError(`${file} is not a Slipway login; run \`slipway login\` again`);
  return parsed.data;
}

/** Written to a temporary file with mode 0600 and renamed over the old one: a token is never world-readable. */
export async function writeStoredLogin(file: string, login: StoredLogin): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** Where to call and with which token: what one command runs against. */
export interface Target {
  url: string;
  token: string | undefined;
}

/** Trailing slashes off, so `${url}/api/...` is one slash. */
export const normaliseUrl = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * `--url`, then SLIPWAY_URL, then the stored login's server, then http://localhost:3000. The token: SLIPWAY_TOKEN,
 * else the stored one — but only for the server it was stored for, so a token never goes to another server.
 */
export function resolveTarget(
  flags: { url?: string | undefined },
  env: NodeJS.ProcessEnv,
  stored: StoredLogin | undefined,
): Target {
  const url = normaliseUrl(flags.url ?? env.SLIPWAY_URL ?? stored?.url ?? DEFAULT_URL);
  const envToken = env.SLIPWAY_TOKEN?.trim();
  if (envToken) return { url, token: envToken };
  return { url, token: stored && normaliseUrl(stored.url) === url ? stored.token : undefined };
}
