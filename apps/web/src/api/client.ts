import type { ErrorBody } from '@slipway/contract';
import axios, { type AxiosError } from 'axios';
import axiosRetry, { isNetworkError } from 'axios-retry';
import { followAuthFailure } from './authRedirects';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The session check answers 401 for every visitor; that 401 is silent (no redirect to '/'). */
    silentUnauthorized?: boolean;
    /** A POST the server answers the same when it arrives twice (it carries the session id it starts). */
    sameAnswerIfRepeated?: boolean;
  }
}

/**
 * The one HTTP client. Cookies go with every call; axios copies the XSRF-TOKEN cookie into the
 * X-XSRF-TOKEN header on same-origin requests (its defaults, which the server expects).
 */
export const api = axios.create({
  withCredentials: true,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  headers: { Accept: 'application/json' },
});

/** Methods that mean the same when sent twice. */
const IDEMPOTENT = new Set(['get', 'head', 'options', 'put', 'delete']);

/**
 * A request whose connection dropped before any answer (the browser's network changed, a proxy restarted)
 * is sent again, twice at most, when sending it twice means the same: a reload would do no better.
 */
axiosRetry(api, {
  retries: 2,
  retryDelay: (retryCount) => retryCount * 300,
  retryCondition: (error) =>
    isNetworkError(error) &&
    (IDEMPOTENT.has(error.config?.method ?? '') || error.config?.sameAnswerIfRepeated === true),
});

api.interceptors.response.use(undefined, (error: AxiosError<Partial<ErrorBody>>) => {
  followAuthFailure(
    error.response?.status,
    error.response?.data?.redirect,
    error.config?.silentUnauthorized === true,
  );
  return Promise.reject(error);
});
