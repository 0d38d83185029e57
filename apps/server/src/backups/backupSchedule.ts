import { type BackupSchedule, MISSED_BACKUP_FACTOR } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import { CronExpressionError, parseCron } from '../scheduling/cronExpression.js';

const DAY_MS = 24 * 60 * 60_000;
/** Occurrences looked at for a cron schedule's period: a weekday-only schedule's is its longest gap (the weekend). */
const PERIOD_SAMPLE = 8;

/** The schedule as the settings row stores it. */
export function scheduleOf(row: {
  scheduleKind: string;
  scheduleTime: string | null;
  scheduleCron: string | null;
}): BackupSchedule {
  return row.scheduleKind === 'cron'
    ? { kind: 'cron', expression: row.scheduleCron ?? '' }
    : { kind: 'daily', time: row.scheduleTime ?? '03:00' };
}

/** The schedule's columns. */
export const scheduleColumns = (schedule: BackupSchedule) => ({
  scheduleKind: schedule.kind,
  scheduleTime: schedule.kind === 'daily' ? schedule.time : null,
  scheduleCron: schedule.kind === 'cron' ? schedule.expression.trim() : null,
});

/**
 * Refuses a cron expression the catalogue's reader cannot read, or that never fires, with its reason (422): its
 * next runs and its period are worked out here once, so nothing later meets an expression without them.
 */
export function checkSchedule(schedule: BackupSchedule, now = new Date()): void {
  if (schedule.kind !== 'cron') return;
  try {
    parseCron(schedule.expression);
    periodMs(schedule, now);
  } catch (error) {
    if (error instanceof CronExpressionError) throw new DomainError('unprocessable', error.message);
    throw error;
  }
}

/** The first time after `after` the schedule names (UTC). */
export function nextBackupAfter(schedule: BackupSchedule, after: Date): Date {
  if (schedule.kind === 'cron') return parseCron(schedule.expression).nextAfter(after);
  const [hours = 0, minutes = 0] = schedule.time.split(':').map(Number);
  const next = new Date(after);
  next.setUTCHours(hours, minutes, 0, 0);
  if (next.getTime() <= after.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** How long the schedule leaves between two backups: a day, or a cron expression's longest gap from `from`. */
export function periodMs(schedule: BackupSchedule, from: Date): number {
  if (schedule.kind === 'daily') return DAY_MS;
  let at = nextBackupAfter(schedule, from);
  let longest = 0;
  for (let i = 0; i < PERIOD_SAMPLE; i++) {
    const next = nextBackupAfter(schedule, at);
    longest = Math.max(longest, next.getTime() - at.getTime());
    at = next;
  }
  return longest;
}

/**
 * Whether the workspace has gone without a verified backup for 1.5 × the schedule's period, counted from
 * the later of the last verified backup and the moment the schedule took its present form.
 */
export function isMissed(schedule: BackupSchedule, since: Date, now: Date): boolean {
  return now.getTime() - since.getTime() > MISSED_BACKUP_FACTOR * periodMs(schedule, since);
}
