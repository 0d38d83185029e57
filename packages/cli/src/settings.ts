import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { UsageError } from './cliErrors.js';

export const DEFAULT_URL = 'http://localhost:3000';

/** What `slipway login` keeps: the server and the token that opens it. */
const storedLoginSchema = z.object({ url: z.string(), token: z.string() });
export type StoredLogin = z.infer<typeof storedLoginSchema>;

/** `$XDG_CONFIG_HOME/slipway/config.json`, `~/.config/slipway/config.json` without it. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(base, 'slipway', 'config.json');
}

/** What the config file holds: no login, a login, or something that cannot be used (and why). */
export type StoredLoginRead =
  | { kind: 'none' }
  | { kind: 'kept'; login: StoredLogin }
  | { kind: 'damaged' | 'unreadable'; file: string; reason: string };

/** Reads the config file; never throws — what is wrong with it is said only when a command needs the login. */
export async function readStoredLogin(file: string): Promise<StoredLoginRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'none' };
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (error as Error).message;
    return { kind: 'unreadable', file, reason };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'damaged', file, reason: 'it is not JSON' };
  }
  const parsed = storedLoginSchema.safeParse(json);
  if (!parsed.success) return { kind: 'damaged', file, reason: 'it does not hold a server and a token' };
  if (serverUrlProblem(parsed.data.url)) {
    return { kind: 'damaged', file, reason: 'its server address is not a URL' };
  }
  return { kind: 'kept', login: parsed.data };
}

/** The sentence for a config file a command needed but could not use, with what to do about it. */
export function storedLoginError(read: Extract<StoredLoginRead, { file: string }>): UsageError {
  const cure =
    read.kind === 'unreadable'
      ? 'fix its permissions or remove it'
      : 'run `slipway logout` to remove it, then `slipway login` again';
  return new UsageError(
    `Cannot use the login kept in ${read.file} (${read.reason}): ${cure}, or set SLIPWAY_URL and SLIPWAY_TOKEN`,
  );
}

/** Removes the kept login; answers whether there was a file to remove. */
export async function removeStoredLogin(file: string): Promise<boolean> {
  try {
    await rm(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new UsageError(`${file} is a directory, not a login: remove it yourself`);
    }
    throw new UsageError(`Cannot remove ${file}: ${(error as Error).message}`);
  }
}

/** Written to a temporary file with mode 0600 and renamed over the old one: a token is never world-readable. */
export async function writeStoredLogin(file: string, login: StoredLogin): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    // The temporary file may not exist (mkdir failed): nothing to clean up then.
    await rm(temporary, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EISDIR' ? `${file} is a directory` : (error as Error).message;
    throw new UsageError(`Cannot keep the login in ${file}: ${reason}`);
  }
}

/** Where to call and with which token: what one command runs against. */
export interface Target {
  url: string;
  token: string | undefined;
  /** How long one request may wait for its answer (a stream: for its headers). */
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_SECONDS = 60;

/** SLIPWAY_TIMEOUT: seconds, 60 when unset. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = given(env.SLIPWAY_TIMEOUT);
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(`SLIPWAY_TIMEOUT "${value.slice(0, 20)}" is not a number of seconds from 1 to 3600`);
  }
  return Math.round(seconds * 1000);
}

/** Trailing slashes off, so `${url}/api/...` is one slash. */
export const normaliseUrl = (url: string) => url.trim().replace(/\/+$/, '');

/** Why `value` cannot be a Slipway server's address, or undefined when it can. */
export function serverUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'it is not an http:// or https:// URL';
  // fetch refuses a URL with a user or password; the token is what signs in.
  if (url.username || url.password) return 'it holds a user name or password (the token signs in)';
  if (url.search || url.hash) return 'it has a ?query or #fragment';
  return undefined;
}

function checkedUrl(value: string, from: string): string {
  const problem = serverUrlProblem(value);
  if (problem) {
    const shown = value.length > 100 ? `${value.slice(0, 100)}…` : value;
    throw new UsageError(
      `${from} "${shown}" is not a Slipway server address (${problem}): give one like https://slipway.example.com`,
    );
  }
  return normaliseUrl(value);
}

const given = (value: string | undefined) => (value?.trim() ? value : undefined);

/**
 * `--url`, then SLIPWAY_URL, then the stored login's server, then http://localhost:3000. The token: SLIPWAY_TOKEN,
 * else the stored one — but only for the server it was stored for, so a token never goes to another server.
 * A config file that cannot be used is an error only where it is needed: with --url (or SLIPWAY_URL) and
 * SLIPWAY_TOKEN, a CI job runs whatever the home directory holds. `login` passes `ignoreDamaged` (it replaces it).
 */
export function resolveTarget(
  flags: { url?: string | undefined },
  env: NodeJS.ProcessEnv,
  stored: StoredLoginRead,
  options: { ignoreDamaged?: boolean } = {},
): Target {
  const chosen = given(flags.url)
    ? checkedUrl(flags.url!, '--url')
    : given(env.SLIPWAY_URL)
      ? checkedUrl(env.SLIPWAY_URL!, 'SLIPWAY_URL')
      : undefined;
  const envToken = env.SLIPWAY_TOKEN?.trim();
  const timeoutMs = requestTimeoutMs(env);
  if (chosen && envToken) return { url: chosen, token: envToken, timeoutMs };
  if (stored.kind === 'damaged' || stored.kind === 'unreadable') {
    if (!options.ignoreDamaged) throw storedLoginError(stored);
    return { url: chosen ?? DEFAULT_URL, token: envToken || undefined, timeoutMs };
  }
  const login = stored.kind === 'kept' ? stored.login : undefined;
  const url = chosen ?? (login ? normaliseUrl(login.url) : DEFAULT_URL);
  if (envToken) return { url, token: envToken, timeoutMs };
  return { url, token: login && normaliseUrl(login.url) === url ? login.token : undefined, timeoutMs };
}
