import { describe, expect, it } from 'vitest';
import { CronExpressionError, parseCron } from './cronExpression.js';

describe('cron expressions users write', () => {
  it('names the next time strictly after a moment, in UTC', () => {
    const schedule = parseCron(' 0  3 * * 1-5 ');
    expect(schedule.nextAfter(new Date('2026-03-06T03:00:00Z')).toISOString()).toBe(
      '2026-03-09T03:00:00.000Z',
    );
    expect(parseCron('0 0 29 2 *').nextAfter(new Date('2026-03-01T00:00:00Z')).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
  });

  it('refuses an expression that never fires, saying so (not a crash at its first run)', () => {
    for (const never of ['0 0 31 4,6,9,11 *', '0 0 30 2 *', '0 0 31 2,4 *']) {
      expect(() => parseCron(never)).toThrow(
        new CronExpressionError(
          `The cron expression "${never}" never fires: no date has the day of month it asks for in a month it allows (e.g. the 31st of a 30-day month). Choose a day every month it allows has.`,
        ),
      );
    }
  });

  it('names the field that is wrong, with what it takes', () => {
    const refusal = (expression: string) => {
      try {
        parseCron(expression);
      } catch (error) {
        expect(error).toBeInstanceOf(CronExpressionError);
        return (error as Error).message;
      }
      throw new Error(`${expression} was accepted`);
    };
    expect(refusal('61 * * * *')).toBe(
      'The cron expression "61 * * * *" cannot be read: its minute field is "61", and it takes 0-59, a list (1,15), a range (1-5) or a step (*/10).',
    );
    expect(refusal('0 24 * * *')).toContain('its hour field is "24", and it takes 0-23');
    expect(refusal('0 3 0 * *')).toContain('its day of month field is "0", and it takes 1-31');
    expect(refusal('0 3 * 13 *')).toContain('its month field is "13", and it takes 1-12 or JAN-DEC');
    expect(refusal('0 3 * * 8')).toContain('its day of week field is "8", and it takes 0-7 or SUN-SAT');
    expect(refusal('*/0 3 * * *')).toContain('its minute field is "*/0"');
    expect(refusal('0 3 * *')).toBe(
      'The cron expression "0 3 * *" has 4 fields: it needs five (minute hour day-of-month month day-of-week), e.g. "0 3 * * *".',
    );
    expect(refusal('0 3 * * * *')).toContain('has 6 fields');
    expect(refusal('')).toContain('has 0 fields');
  });
});
