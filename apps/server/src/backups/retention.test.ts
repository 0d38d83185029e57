import { describe, expect, it } from 'vitest';
import { isMissed, nextBackupAfter, periodMs } from './backupSchedule.js';
import { retentionOf } from './retention.js';

const at = (iso: string, id = iso) => ({ id, startedAt: new Date(iso) });
const HOUR = 60 * 60_000;

describe('retention', () => {
  it('keeps the newest of each of the last N days and M weeks', () => {
    const backups = [
      at('2026-03-09T03:00:00Z'), // Monday, week 11
      at('2026-03-08T15:00:00Z'), // Sunday, week 10
      at('2026-03-08T03:00:00Z'),
      at('2026-03-07T03:00:00Z'),
      at('2026-03-01T03:00:00Z'), // Sunday, week 9
      at('2026-02-20T03:00:00Z'), // week 8
    ];
    const { keep, forget } = retentionOf(backups, { daily: 2, weekly: 3 }, new Date('2026-03-11T00:00:00Z'));
    expect(keep).toEqual(['2026-03-09T03:00:00Z', '2026-03-08T15:00:00Z', '2026-03-01T03:00:00Z']);
    expect(forget).toEqual(['2026-03-08T03:00:00Z', '2026-03-07T03:00:00Z', '2026-02-20T03:00:00Z']);
  });

  it('never forgets the newest verified backup, whatever the policy', () => {
    const { keep, forget } = retentionOf(
      [at('2026-03-01T03:00:00Z', 'old'), at('2026-03-09T03:00:00Z', 'new')],
      { daily: 1, weekly: 0 },
      new Date('2026-03-11T00:00:00Z'),
    );
    expect(keep).toEqual(['new']);
    expect(forget).toEqual(['old']);
    const later = new Date('2026-03-11T00:00:00Z');
    expect(retentionOf([at('2026-03-09T03:00:00Z', 'only')], { daily: 0, weekly: 0 }, later).keep).toEqual([
      'only',
    ]);
  });

  it('keeps every backup of the last 24 hours besides the daily and weekly ones', () => {
    const backups = [
      at('2026-03-09T12:00:00Z', 'now'),
      at('2026-03-09T11:00:00Z', 'manual an hour ago'),
      at('2026-03-08T12:30:00Z', 'yesterday within 24 h'),
      at('2026-03-08T11:00:00Z', 'yesterday, 25 h ago'),
      at('2026-03-08T03:00:00Z', 'yesterday early'),
    ];
    const { keep, forget } = retentionOf(backups, { daily: 1, weekly: 0 }, new Date('2026-03-09T12:00:00Z'));
    expect(keep).toEqual(['now', 'manual an hour ago', 'yesterday within 24 h']);
    expect(forget).toEqual(['yesterday, 25 h ago', 'yesterday early']);
  });
});

describe('backup schedule', () => {
  it('runs daily at the time given (UTC), today if it is still ahead', () => {
    const schedule = { kind: 'daily', time: '03:00' } as const;
    expect(nextBackupAfter(schedule, new Date('2026-03-02T02:59:00Z')).toISOString()).toBe(
      '2026-03-02T03:00:00.000Z',
    );
    expect(nextBackupAfter(schedule, new Date('2026-03-02T03:00:00Z')).toISOString()).toBe(
      '2026-03-03T03:00:00.000Z',
    );
  });

  it("takes a cron schedule's longest gap as its period (a weekday schedule's is the weekend)", () => {
    const weekdays = { kind: 'cron', expression: '0 3 * * 1-5' } as const;
    expect(periodMs(weekdays, new Date('2026-03-02T12:00:00Z'))).toBe(72 * HOUR);
    expect(periodMs({ kind: 'cron', expression: '*/15 * * * *' }, new Date('2026-03-02T12:00:00Z'))).toBe(
      HOUR / 4,
    );
  });

  it('is missed after 1.5 periods without a verified backup', () => {
    const daily = { kind: 'daily', time: '03:00' } as const;
    const since = new Date('2026-03-02T03:05:00Z');
    expect(isMissed(daily, since, new Date(since.getTime() + 36 * HOUR))).toBe(false);
    expect(isMissed(daily, since, new Date(since.getTime() + 36 * HOUR + 1))).toBe(true);
  });
});
