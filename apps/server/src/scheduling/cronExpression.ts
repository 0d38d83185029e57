import cronParser from 'cron-parser';

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week), read in UTC: the schedule
 * catalogue's one reader of cron, for work a user schedules (backups). `parseCron` throws a sentence that
 * says what is wrong, for the user to read.
 */
export interface CronSchedule {
  /** The first time strictly after `after` the expression names. */
  nextAfter(after: Date): Date;
}

export class CronExpressionError extends Error {
  override name = 'CronExpressionError';
}

export function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw new CronExpressionError(
      `"${expression}" has ${fields.length} fields: a cron expression has five (minute hour day-of-month month day-of-week), e.g. "0 3 * * *".`,
    );
  }
  const text = fields.join(' ');
  try {
    // Parsed once here so a mistake is refused when the schedule is saved, not at its first run.
    cronParser.parseExpression(text, { utc: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CronExpressionError(`"${expression}" is not a cron expression Slipway can read: ${reason}.`);
  }
  return {
    nextAfter(after: Date): Date {
      return cronParser.parseExpression(text, { utc: true, currentDate: after }).next().toDate();
    },
  };
}
