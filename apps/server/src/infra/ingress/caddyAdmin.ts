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

export interface CaddyAdmin {
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  /** The value at `path`, or null when Caddy has none there (or does not answer). */
  read(path: string): Promise<unknown>;
  /**
   * Runs `write` until it succeeds, at most `attempts` times with a growing pause: a Caddy that is reloading
   * under live connections or restarting answers slowly or not at all for a moment. `write` must be safe
   * to run again (look before you POST).
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

  function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method,
          agent: false,
          timeout: options.timeoutMs ?? 15_000,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
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
              resolve(text.trim() ? JSON.parse(text) : null);
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

  return {
    call,
    read: (path) => call('GET', path).catch(() => null),
    async retrying(write) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await write();
        } catch (error) {
          // A 4xx is an answer about the request itself: asking again changes nothing.
          const status = (error as CaddyError).status;
          if (attempt >= attempts || (status !== undefined && status >= 400 && status < 500)) throw error;
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
        }
      }
    },
  };
}
