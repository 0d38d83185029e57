import { Octokit } from '@octokit/rest';
import { DomainError } from '../../domain/errors.js';

/** Long enough to page through a few thousand repositories, short enough that a hung GitHub never hangs us. */
const REQUEST_TIMEOUT_MS = 30_000;

const noop = () => {};
/** Failed requests become DomainErrors where they are caught; Octokit need not print them as well. */
export const quietLog = { debug: noop, info: noop, warn: console.warn, error: noop };

export function createOctokit(apiUrl: string, token: string): Octokit {
  return new Octokit({
    auth: token,
    baseUrl: apiUrl,
    userAgent: 'slipway',
    log: quietLog,
    request: { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) },
  });
}

interface RequestErrorLike {
  status?: number;
  response?: { headers?: Record<string, string | number | undefined> };
}

const hhmm = (date: Date) =>
  `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')} UTC`;

/**
 * GitHub's failures as errors a person understands: the rate limit with the time it resets, 404 as
 * not found, a revoked token as "sign in again". Never includes the token or the request's headers.
 */
export function githubError(error: unknown, notFoundMessage = 'Not found on GitHub'): DomainError {
  if (error instanceof DomainError) return error;
  const { status, response } = (error ?? {}) as RequestErrorLike;
  const headers = response?.headers ?? {};
  const remaining = headers['x-ratelimit-remaining'];
  const limited =
    (status === 403 || status === 429) && (String(remaining) === '0' || headers['retry-after'] !== undefined);
  if (limited) {
    const reset = Number(headers['x-ratelimit-reset']);
    const retryAfter = Number(headers['retry-after']);
    const at =
      Number.isFinite(reset) && reset > 0
        ? new Date(reset * 1000)
        : new Date(Date.now() + (Number.isFinite(retryAfter) ? retryAfter : 60) * 1000);
    return new DomainError('rate_limited', `GitHub rate limit reached; try again after ${hhmm(at)}`, {
      data: { retry_at: at.toISOString() },
    });
  }
  if (status === 404) return new DomainError('not_found', notFoundMessage);
  if (status === 401) {
    return new DomainError('unauthenticated', 'Your GitHub sign-in has expired. Please sign in again.');
  }
  if (status === 403) {
    return new DomainError('forbidden', 'GitHub refused access to this repository');
  }
  if (typeof status === 'number') {
    return new DomainError(
      'upstream_failed',
      `GitHub answered with an error (HTTP ${status}). Please try again.`,
    );
  }
  return new DomainError('upstream_failed', 'GitHub could not be reached. Please try again.');
}
