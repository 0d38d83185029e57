import type { ErrorBody } from '@slipway/contract';
import axios, { type AxiosError } from 'axios';
import { followAuthFailure } from './authRedirects';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The session check answers 401 for every visitor; that 401 is silent (no redirect to '/'). */
    silentUnauthorized?: boolean;
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

api.interceptors.response.use(undefined, (error: AxiosError<Partial<ErrorBody>>) => {
  followAuthFailure(
    error.response?.status,
    error.response?.data?.redirect,
    error.config?.silentUnauthorized === true,
  );
  return Promise.reject(error);
});
