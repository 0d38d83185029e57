import type { FailureKind } from './serviceJudgement.js';

/** Lines that usually say what went wrong, in the words of most runtimes and tools. */
const ERROR_LINE =
  /\b(error|errors|fatal|panic|exception|traceback|failed|failure|cannot|can't|could not|unable|denied|refused|not found|no such|invalid|killed)\b/i;

const FIRST_ERRORS = 5;
const LAST_LINES = 20;

/**
 * What the failure view shows for one service: the first lines that look like errors (they explain, where
 * the last lines often only show the aftermath) and the last lines it printed.
 */
export function summarizeLog(log: string): string {
  const lines = log.split('\n').map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return '(no output)';
  const last = lines.slice(-LAST_LINES);
  const lastStart = lines.length - last.length;
  const errors = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line, index }) => index < lastStart && ERROR_LINE.test(line))
    .slice(0, FIRST_ERRORS)
    .map(({ line }) => line);
  const parts: string[] = [];
  if (errors.length > 0) parts.push('First errors:', ...errors, '', 'Last lines:');
  parts.push(...last);
  return parts.join('\n');
}

/** One plain sentence per failure class. */
export function failureMessage(
  service: string,
  kind: FailureKind,
  details: { exitCode: number | null; port?: number; timeoutSeconds: number; memoryMb?: number },
): string {
  const code = details.exitCode ?? 'unknown';
  switch (kind) {
    case 'oom_killed':
      return `Service '${service}' was killed for memory: it used more than its limit${details.memoryMb ? ` of ${details.memoryMb} MB` : ''}`;
    case 'exited':
      return `Service '${service}' exited with code ${code}`;
    case 'restarting':
      return details.exitCode === null
        ? `Service '${service}' keeps restarting: it stopped and Docker started it again`
        : `Service '${service}' keeps restarting: it exited with code ${code}`;
    case 'unhealthy':
      return `Service '${service}' is unhealthy: its healthcheck failed`;
    case 'port_silent':
      return `Service '${service}' never answered on port ${details.port ?? '?'} within ${details.timeoutSeconds} s`;
    case 'not_started':
      return `Service '${service}' did not start within ${details.timeoutSeconds} s`;
  }
}
