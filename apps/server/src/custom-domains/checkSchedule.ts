const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * When a claim is checked next. Pending or Misconfigured: 1 minute after it was added (or after a Verify that
 * did not pass), then backing off 2, 5, 10, 30 minutes and hourly after each failed check. Verified and Active:
 * daily. Issuing: the certificate asked for again soon, backing off to hourly. A check that got no DNS answer
 * (no verdict) on a live domain: again within the hour.
 */
const PENDING_BACKOFF = [1 * MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR];
const ISSUING_BACKOFF = [
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
];
export const RECHECK_VERIFIED_MS = 24 * HOUR;
export const RECHECK_UNANSWERED_MS = HOUR;
/** A refusal by the CA without a time to retry: asked again after this long. */
export const RETRY_REFUSED_MS = HOUR;

const step = (delays: number[], failures: number) => delays[Math.min(failures, delays.length - 1)]!;

/** After `failedChecks` failed checks in a row (0: just added, or a Verify asked for a fresh start). */
export const nextPendingCheck = (at: Date, failedChecks: number) =>
  new Date(at.getTime() + step(PENDING_BACKOFF, failedChecks));

/** After `failedAttempts` handshakes that found no certificate yet (0: issuing just began). */
export const nextIssuingAttempt = (at: Date, failedAttempts: number) =>
  new Date(at.getTime() + step(ISSUING_BACKOFF, failedAttempts));

export const after = (at: Date, ms: number) => new Date(at.getTime() + ms);
