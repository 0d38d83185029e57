/**
 * Domain errors are values with stable ids. Services throw them; `http/errorHandler.ts` maps each id
 * to an HTTP status and the spec's `{error, detail, redirect}` body in one place.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  payment_required: 402,
  webhook_unverified: 400,
  forbidden: 403,
  not_whitelisted: 403,
  xsrf_mismatch: 403,
  insufficient_scope: 403,
  not_found: 404,
  workspace_not_found: 404,
  conflict: 409,
  deployment_in_progress: 409,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable: 422,
  headers_too_large: 431,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      detail?: string;
      redirect?: string;
      data?: Record<string, unknown>;
      /** Seconds until a refused request may be sent again (a 429's Retry-After). */
      retryAfterSeconds?: number;
      /** Headers the answer carries (a 429's `RateLimit-*`). */
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what = 'Not found') => new DomainError('not_found', what);
export const invalid = (message: string) => new DomainError('invalid_request', message);
