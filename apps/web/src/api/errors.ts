import type { ErrorBody } from '@slipway/contract';
import axios from 'axios';

/** The server's `error` field, when the failure came with one. */
export function serverError(error: unknown): string | undefined {
  if (!axios.isAxiosError<Partial<ErrorBody>>(error)) return undefined;
  const message = error.response?.data?.error;
  return typeof message === 'string' && message ? message : undefined;
}

/** The server's `detail` field (falling back to `error`), when the failure came with one. */
export function serverDetail(error: unknown): string | undefined {
  if (!axios.isAxiosError<Partial<ErrorBody>>(error)) return undefined;
  const detail = error.response?.data?.detail;
  return typeof detail === 'string' && detail ? detail : serverError(error);
}

export function httpStatus(error: unknown): number | undefined {
  return axios.isAxiosError(error) ? error.response?.status : undefined;
}

/** True when the request never got an answer (offline, server down, CORS). */
export function isNetworkError(error: unknown): boolean {
  return axios.isAxiosError(error) && !error.response;
}
