import type { ErrorBody } from '@slipway/contract';
import type { AxiosError } from 'axios';

/**
 * axios.isAxiosError's own test, without importing axios: the shell reads errors (the session check,
 * the query client's retry rule) before any screen has loaded the HTTP client.
 */
export function isHttpError<Body = unknown>(error: unknown): error is AxiosError<Body> {
  return (
    typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true
  );
}

/** The server's `error` field, when the failure came with one. */
export function serverError(error: unknown): string | undefined {
  if (!isHttpError<Partial<ErrorBody>>(error)) return undefined;
  const message = error.response?.data?.error;
  return typeof message === 'string' && message ? message : undefined;
}

/** The server's `detail` field (falling back to `error`), when the failure came with one. */
export function serverDetail(error: unknown): string | undefined {
  if (!isHttpError<Partial<ErrorBody>>(error)) return undefined;
  const detail = error.response?.data?.detail;
  return typeof detail === 'string' && detail ? detail : serverError(error);
}

export function httpStatus(error: unknown): number | undefined {
  return isHttpError(error) ? error.response?.status : undefined;
}

/** True when the request never got an answer (offline, server down, CORS). */
export function isNetworkError(error: unknown): boolean {
  return isHttpError(error) && !error.response;
}
