import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export class CaddyError extends Error {
  override name = 'CaddyError';
  constructor(
    message: string,
    /** The HTTP status Caddy answered, or undefined when it did not answer at all. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A value read from Caddy's config with its version: a write given `etag` happens only if it is unchanged. */
export interface TaggedValue {
  value: unknown;
  etag: string | undefined;
}

export interface CaddyAdmin {
  /** `ifMatch`: the etag of an earlier read; Caddy refuses the write (412) when that part changed since. */
  call(method: string, path: string, body?: unknown, ifMatch?: string): Promise<unknown>;
  /** The value at `path`, or null when Caddy has none there (or does not answer). */
  read(path: string): Promise<unknown>;
  /** The value at `path` with its etag; a Caddy that does not answer throws. */
  readTagged(path: string): Promise<TaggedValue>;
  /**
   * Runs `write` until it succeeds, at most `attempts` times with a growing pause: a Caddy that is reloading
   * under live connections or restarting answers slowly or not at all for a moment, and a conditional write
   * loses to a change made since its read (412). `write` must be safe to run again (look before you POST).
   */
  retrying<T>(write: () => Promise<T>): Promise<T>;
}

/**
 * Caddy's admin API. Every call is on a fresh connection: Caddy closes idle connections when it reloads its
 * config, and a pooled keep-alive socket would then fail the next call ("fetch failed").
 */
export function createCaddyAdmin(options: {
  adminUrl: string;
  timeoutMs?: number;
  attempts?: number;
  retryDelayMs?: number;
}): CaddyAdmin {
  const base = options.adminUrl.replace(/\/$/, '');
  const attempts = options.attempts ?? 4;
  const retryDelayMs = options.retryDelayMs ?? 1000;

  function send(method: string, path: string, body?: unknown, ifMatch?: string): Promise<TaggedValue> {
    const url = new URL(`${base}${path}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const transport = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = transport(
        url,
        {
          method,
          agent: false,
          timeout: options.timeoutMs ?? 15_000,
          headers: {
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              reject(
                new CaddyError(`Caddy ${method} ${path} answered ${status}: ${text.slice(0, 300)}`, status),
              );
            } else {
              // Caddy sends a read's etag as a trailer: it hashes the config while writing it out.
              const etag = response.trailers.etag ?? response.headers.etag;
              resolve({ value: text.trim() ? JSON.parse(text) : null, etag });
            }
          });
        },
      );
      request.on('timeout', () => request.destroy(new CaddyError(`Caddy ${method} ${path} timed out`)));
      request.on('error', (error) =>
        reject(
          error instanceof CaddyError ? error : new CaddyError(`Caddy ${method} ${path}: ${error.message}`),
        ),
      );
      request.end(payload);
    });
  }

  const call = async (method: string, path: string, body?: unknown, ifMatch?: string) =>
    (await send(method, path, body, ifMatch)).value;

  return {
    call,
    read: (path) => call('GET', path).catch(() => null),
    readTagged: (path) => send('GET', path),
    async retrying(write) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await write();
        } catch (error) {
          // A 4xx is an answer about the request itself: asking again changes nothing, except after a 412,
          // where `write` reads again what changed since.
          const status = (error as CaddyError).status;
          const final = status !== undefined && status >= 400 && status < 500 && status !== 412;
          if (attempt >= attempts || final) throw error;
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
        }
      }
    },
  };
}

/**
 * Sets the object at `path` (a `/config/...` path), first creating each missing object above it: Caddy only
 * sets a key whose parent exists, and one that restarted empty has none of Slipway's.
 */
export async function setConfig(admin: CaddyAdmin, path: string, value: unknown): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  for (let depth = 2; depth < parts.length; depth++) {
    const parent = `/${parts.slice(0, depth).join('/')}`;
    if ((await admin.read(parent)) !== null) continue;
    // A key that appeared meanwhile (another replica) is already what we want.
    await admin.call('PUT', parent, {}).catch((error: Error) => {
      if (!/already exists/.test(error.message)) throw error;
    });
  }
  // POST sets or replaces an object.
  await admin.call('POST', path, value);
}
