import cronParser from 'cron-parser';

/**
 * A five-field cron expression (minute hour day-of-month month day-of-week), read in UTC: the schedule
 * catalogue's one reader of cron, for work a user schedules (backups). `parseCron` throws a sentence that
 * names the cron expression and, where one field is wrong, that field: the user reads it.
 */
export interface CronSchedule {
  /** The first time strictly after `after` the expression names. */
  nextAfter(after: Date): Date;
}

export class CronExpressionError extends Error {
  override name = 'CronExpressionError';
}

const FIELDS = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;
const RANGES = ['0-59', '0-23', '1-31', '1-12 or JAN-DEC', '0-7 or SUN-SAT'] as const;

/** cron-parser's reading of `text`; it throws when it refuses it. */
function tryParse(text: string, after?: Date) {
  return cronParser.parseExpression(text, { utc: true, ...(after ? { currentDate: after } : {}) });
}

/** The first field that cron-parser refuses on its own (the others left as `*`). */
function badField(fields: string[]): number | undefined {
  for (const [index, field] of fields.entries()) {
    const alone = FIELDS.map((_, i) => (i === index ? field : '*')).join(' ');
    try {
      tryParse(alone);
    } catch {
      return index;
    }
  }
  return undefined;
}

const neverFires = (expression: string) =>
  new CronExpressionError(
    `The cron expression "${expression}" never fires: no date has the day of month it asks for in a month it allows (e.g. the 31st of a 30-day month). Choose a day every month it allows has.`,
  );

/** The next time `text` names after `after`; a CronExpressionError when it names none (a day no month has). */
function nextOf(expression: string, text: string, after: Date): Date {
  try {
    return tryParse(text, after).next().toDate();
  } catch {
    // cron-parser gives up after a bounded search: no minute of the next years matches every field.
    throw neverFires(expression);
  }
}

export function parseCron(expression: string): CronSchedule {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5) {
    throw new CronExpressionError(
      `The cron expression "${expression}" has ${fields.length} field${fields.length === 1 ? '' : 's'}: it needs five (minute hour day-of-month month day-of-week), e.g. "0 3 * * *".`,
    );
  }
  const text = fields.join(' ');
  try {
    // Parsed once here so a mistake is refused when the schedule is saved, not at its first run.
    tryParse(text);
  } catch {
    const field = badField(fields);
    if (field !== undefined) {
      throw new CronExpressionError(
        `The cron expression "${expression}" cannot be read: its ${FIELDS[field]} field is "${fields[field]}", and it takes ${RANGES[field]}, a list (1,15), a range (1-5) or a step (*/10).`,
      );
    }
    // Every field reads on its own, so it is their combination cron-parser refused (February 30th).
    throw neverFires(expression);
  }
  // An expression that reads but names no time at all would have no next run: refused now, not at a due check.
  nextOf(expression, text, new Date());
  return {
    nextAfter: (after: Date) => nextOf(expression, text, after),
  };
}
