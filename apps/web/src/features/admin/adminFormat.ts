export function fullName(user: { first_name: string | null; last_name: string | null }): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ');
}

/** Spec §9: the last 50 of the 100 requested lines are shown per service. */
export const SYSTEM_LOG_LINES_SHOWN = 50;
export const lastLines = (lines: string[], count = SYSTEM_LOG_LINES_SHOWN) => lines.slice(-count);

/** Spec §9: the first 20 lines of the Redis info text. */
export const REDIS_INFO_LINES = 20;
export const firstInfoLines = (info: string) => info.split(/\r?\n/).slice(0, REDIS_INFO_LINES);

/** Spec §9: the first 3 deployed versions of a workspace. */
export const VERSIONS_SHOWN = 3;

/** Only http(s) addresses become links (a stored `javascript:` URL stays text). */
export const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : undefined);

/** An audit entry's detail on one line: `name: ci · scopes: read, deploy`, nulls as a dash, at most `max` characters. */
export function auditDetailSummary(detail: Record<string, unknown>, max = 140): string {
  const text = (value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (Array.isArray(value)) return value.map(text).join(', ');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
  const line = Object.entries(detail)
    .map(([key, value]) => `${key}: ${text(value)}`)
    .join(' · ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
