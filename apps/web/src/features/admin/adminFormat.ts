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
