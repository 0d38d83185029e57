import { DomainError } from '../../domain/errors.js';

export interface PaypalClientConfig {
  /** https://api-m.paypal.com, https://api-m.sandbox.paypal.com, or a local stand-in in tests. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
}

export interface PaypalRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** An object is sent as JSON; a string is sent as it is (already JSON). */
  body?: unknown;
  /** PayPal-Request-Id: PayPal answers a repeated id with the first result instead of acting twice. */
  requestId?: string;
}

/** A non-2xx answer from PayPal, with PayPal's error name (e.g. RESOURCE_NOT_FOUND) when it gave one. */
export class PaypalApiError extends Error {
  override name = 'PaypalApiError';
  constructor(
    readonly status: number,
    readonly paypalName: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

const unreachable = () =>
  new DomainError('upstream_failed', 'PayPal could not be reached. Please try again in a moment.');

/**
 * PayPal's REST API over fetch: an OAuth2 client-credentials token cached until shortly before it
 * expires (refreshed once if PayPal rejects it early), JSON in and out, and a timeout on every call.
 */
export function createPaypalClient(config: PaypalClientConfig) {
  const timeoutMs = config.timeoutMs ?? 20_000;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const basic = Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64');
    const response = await fetch(`${config.apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(timeoutMs),
    }).catch(() => {
      throw unreachable();
    });
    const answer = (await response.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
    };
    if (!response.ok || !answer.access_token) {
      throw new DomainError(
        'upstream_failed',
        'PayPal refused our credentials. Check PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET.',
      );
    }
    // A minute of margin so a token never expires between our check and PayPal's.
    const lifetimeMs = Math.max((answer.expires_in ?? 300) - 60, 30) * 1000;
    cached = { token: answer.access_token, expiresAt: Date.now() + lifetimeMs };
    return answer.access_token;
  }

  async function accessToken(): Promise<string> {
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    // Concurrent callers share one token request.
    pending ??= fetchToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function send(request: PaypalRequest, token: string): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
    };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.requestId) headers['paypal-request-id'] = request.requestId;
    return fetch(`${config.apiUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body === undefined
        ? {}
        : { body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(timeoutMs),
    }).catch(() => {
      throw unreachable();
    });
  }

  return {
    async request<T>(request: PaypalRequest): Promise<T> {
      let response = await send(request, await accessToken());
      if (response.status === 401) {
        cached = undefined;
        response = await send(request, await accessToken());
      }
      const text = await response.text();
      const answer = parseJson(text);
      if (!response.ok) {
        const error = (answer ?? {}) as { name?: string; message?: string };
        throw new PaypalApiError(
          response.status,
          error.name,
          `PayPal ${request.method} ${request.path} answered ${response.status}: ${error.message ?? error.name ?? 'no detail'}`,
        );
      }
      return answer as T;
    },
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type PaypalClient = ReturnType<typeof createPaypalClient>;
