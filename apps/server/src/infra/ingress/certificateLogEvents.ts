import type { CertificateEvent } from './ingress.js';

/** What one line of Caddy's JSON log says about a certificate, if anything. */
export type CertificateLogFact =
  | CertificateEvent
  /** Caddy starts (again) to obtain or renew: what the CA said about an earlier attempt no longer applies. */
  | { host: string; kind: 'attempt' }
  /** The CA's answer to one challenge (http-01, tls-alpn-01): the reason behind a failure Caddy words vaguely. */
  | {
      host: string;
      kind: 'challenge-failed';
      challenge: string;
      detail: string;
      problem: string | undefined;
    };

interface CaddyLogLine {
  msg?: unknown;
  identifier?: unknown;
  error?: unknown;
  challenge_type?: unknown;
  problem_type?: unknown;
}

const ACME_ERROR = 'urn:ietf:params:acme:error:';
/** How acmez words a CA's problem document: `HTTP 429 urn:ietf:params:acme:error:rateLimited - {detail}`. */
const PROBLEM = /HTTP \d{3} urn:ietf:params:acme:error:(\w+) - (.*)$/s;
/** Let's Encrypt's rate-limit details: "Retry after 2024-01-27T03:00:00Z: see …", "retry after 2025-07-02 04:04:50 UTC: see …". */
const RETRY_AFTER = /retry after (\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?\s*(?:Z|UTC)?/i;
const MAX_MESSAGE = 500;

/**
 * Reads one line of Caddy 2.6's JSON log (loggers `tls.obtain`, `tls.renew`, `http.acme_client`): a
 * certificate obtained or renewed, a failed attempt with the CA's problem, a failed challenge, or nothing.
 */
export function parseCertificateLogLine(line: string): CertificateLogFact | undefined {
  let entry: CaddyLogLine | null;
  try {
    entry = JSON.parse(line) as CaddyLogLine | null;
  } catch {
    return undefined;
  }
  const host = entry && typeof entry.identifier === 'string' ? entry.identifier : undefined;
  if (!entry || !host) return undefined;
  const error = typeof entry.error === 'string' ? entry.error : '';
  switch (entry.msg) {
    case 'certificate obtained successfully':
    case 'certificate renewed successfully':
      return { host, kind: 'obtained' };
    case 'obtaining certificate':
    case 'renewing certificate':
      return { host, kind: 'attempt' };
    case 'challenge failed':
      return {
        host,
        kind: 'challenge-failed',
        challenge: typeof entry.challenge_type === 'string' ? entry.challenge_type : 'challenge',
        detail: oneLine(error),
        problem:
          typeof entry.problem_type === 'string' ? entry.problem_type.replace(ACME_ERROR, '') : undefined,
      };
    case 'could not get certificate from issuer': {
      const problem = PROBLEM.exec(error);
      if (!problem) return { host, kind: 'failed', message: oneLine(error) };
      const [, type, detail] = problem as unknown as [string, string, string];
      return {
        host,
        kind: 'failed',
        message: oneLine(detail),
        problem: type,
        retryAfter: type === 'rateLimited' ? retryAfterIn(detail) : undefined,
      };
    }
    default:
      return undefined;
  }
}

/** The time a rate-limit message names, if it names one. */
export function retryAfterIn(detail: string): Date | undefined {
  const match = RETRY_AFTER.exec(detail);
  if (!match) return undefined;
  const date = new Date(`${match[1]}T${match[2]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Turns Caddy's log lines, in order, into certificate events. When Caddy's own failure line does not carry the
 * CA's problem (after every challenge failed it says "no solvers available for remaining challenges"), the
 * event carries what the CA said of each challenge of that attempt instead.
 */
export function certificateEventReader(): (line: string) => CertificateEvent | undefined {
  const challenges = new Map<string, { challenge: string; detail: string; problem: string | undefined }[]>();
  return (line) => {
    const fact = parseCertificateLogLine(line);
    if (!fact) return undefined;
    if (fact.kind === 'attempt') {
      challenges.delete(fact.host);
      return undefined;
    }
    if (fact.kind === 'challenge-failed') {
      // Bounded: a flood of failing names must not grow this without end.
      if (!challenges.has(fact.host) && challenges.size >= 1000) challenges.clear();
      challenges.set(fact.host, [...(challenges.get(fact.host) ?? []), fact].slice(-4));
      return undefined;
    }
    const failures = challenges.get(fact.host) ?? [];
    challenges.delete(fact.host);
    if (fact.kind === 'obtained' || fact.problem || failures.length === 0) return fact;
    return {
      host: fact.host,
      kind: 'failed',
      message: oneLine(failures.map((failure) => `${failure.challenge}: ${failure.detail}`).join('; ')),
      problem: failures.find((failure) => failure.problem === 'connection')?.problem ?? failures[0]?.problem,
    };
  };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
