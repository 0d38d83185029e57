/** A verified backup as retention sees it. */
export interface RetainedBackup {
  id: string;
  startedAt: Date;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** ISO week (`2026-W48`), in UTC. */
function weekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Every backup this recent is kept, besides the daily and weekly ones: a manual backup of an hour ago stays. */
export const KEEP_WITHIN_MS = 24 * 60 * 60_000;

/**
 * restic's `--keep-within 24h --keep-daily N --keep-weekly M`, over the verified backups: every backup of the last
 * 24 hours, the newest backup of each of the last N days that have one, and of each of the last M weeks; and
 * always the newest verified backup, whatever the policy says. Answers the ids kept and the ids to forget.
 */
export function retentionOf(
  verified: RetainedBackup[],
  policy: { daily: number; weekly: number },
  now: Date,
): { keep: string[]; forget: string[] } {
  const newestFirst = [...verified].sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
  const keep = new Set<string>();
  const days = new Set<string>();
  const weeks = new Set<string>();
  for (const backup of newestFirst) {
    if (now.getTime() - backup.startedAt.getTime() < KEEP_WITHIN_MS) keep.add(backup.id);
    const day = dayOf(backup.startedAt);
    if (!days.has(day) && days.size < policy.daily) {
      days.add(day);
      keep.add(backup.id);
    }
    const week = weekOf(backup.startedAt);
    if (!weeks.has(week) && weeks.size < policy.weekly) {
      weeks.add(week);
      keep.add(backup.id);
    }
  }
  const newest = newestFirst[0];
  if (newest) keep.add(newest.id);
  return {
    keep: newestFirst.filter((backup) => keep.has(backup.id)).map((backup) => backup.id),
    forget: newestFirst.filter((backup) => !keep.has(backup.id)).map((backup) => backup.id),
  };
}
