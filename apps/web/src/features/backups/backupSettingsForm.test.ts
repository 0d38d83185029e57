import type { BackupSettings } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  BACKUP_SETTINGS_FORM,
  type BackupSettingsForm,
  retentionText,
  sameSettings,
  scheduleText,
  settingsForm,
  settingsRequest,
} from './backupSettingsForm';

const saved: BackupSettings = {
  enabled: true,
  schedule: { kind: 'daily', time: '03:00' },
  keep_daily: 7,
  keep_weekly: 4,
  repository: 'local directory',
  next_backup_at: null,
  missed_since: null,
};

const form = (change: Partial<BackupSettingsForm> = {}): BackupSettingsForm => ({
  ...settingsForm(saved),
  ...change,
});

describe('backup settings form', () => {
  it('starts from what is saved, keeping a default time for the other kind', () => {
    expect(form()).toEqual({
      enabled: true,
      kind: 'daily',
      time: '03:00',
      expression: '',
      keepDaily: '7',
      keepWeekly: '4',
    });
    expect(settingsForm({ ...saved, schedule: { kind: 'cron', expression: '0 */6 * * *' } })).toMatchObject({
      kind: 'cron',
      time: '03:00',
      expression: '0 */6 * * *',
    });
  });

  it('sends a daily schedule or a cron expression with tidied spaces', () => {
    expect(settingsRequest(form({ time: '22:30', keepWeekly: '0' }))).toEqual({
      settings: { enabled: true, schedule: { kind: 'daily', time: '22:30' }, keep_daily: 7, keep_weekly: 0 },
    });
    expect(settingsRequest(form({ kind: 'cron', expression: ' 0  */6 * * 1-5 ' }))).toMatchObject({
      settings: { schedule: { kind: 'cron', expression: '0 */6 * * 1-5' } },
    });
  });

  it('refuses what the server would, in the contract’s words, and a cron expression without five fields', () => {
    expect(settingsRequest(form({ time: '25:00' }))).toEqual({
      problems: { time: 'Enter a time of day as HH:MM, e.g. 03:00' },
    });
    expect(settingsRequest(form({ keepDaily: '0' }))).toEqual({
      problems: { keepDaily: 'Keep at least 1 daily backup' },
    });
    expect(settingsRequest(form({ keepDaily: 'many', keepWeekly: '' }))).toEqual({
      problems: {
        keepDaily: 'Enter a whole number of daily backups',
        keepWeekly: 'Enter a whole number of weekly backups',
      },
    });
    expect(settingsRequest(form({ kind: 'cron', expression: '0 3 * *' }))).toEqual({
      problems: {
        expression: 'Enter a cron expression of five fields (minute hour day month weekday), e.g. 0 3 * * *',
      },
    });
  });

  it('knows when there is nothing to save', () => {
    expect(sameSettings(form(), saved)).toBe(true);
    expect(sameSettings(form({ enabled: false }), saved)).toBe(false);
    expect(sameSettings(form({ kind: 'cron', expression: '0 3 * * *' }), saved)).toBe(false);
    expect(sameSettings(form({ keepDaily: 'x' }), saved)).toBe(false);
  });

  it('says when backups run', () => {
    expect(scheduleText(saved)).toBe('Every day at 03:00 UTC.');
    expect(scheduleText({ ...saved, schedule: { kind: 'cron', expression: '0 */6 * * *' } })).toBe(
      'On the cron schedule 0 */6 * * * (UTC).',
    );
    expect(scheduleText({ ...saved, enabled: false })).toBe(
      'Scheduled backups are off; Back Up Now still works.',
    );
  });
});

describe('retention in words', () => {
  it('counts days and weeks in real plurals, and keeps the last 24 hours', () => {
    expect(retentionText({ keep_daily: 1, keep_weekly: 4 })).toBe(
      'Keeps every backup of the last 24 hours, the newest of each day for 1 day and of each week for 4 weeks, and always the newest verified one.',
    );
    expect(retentionText({ keep_daily: 7, keep_weekly: 0 })).toBe(
      'Keeps every backup of the last 24 hours, the newest of each day for 7 days, and always the newest verified one.',
    );
  });
});

describe('the retention fields', () => {
  it('take the bounds the server checks: 1 to 365 days, 0 to 520 weeks', () => {
    const { keepDaily, keepWeekly } = BACKUP_SETTINGS_FORM.bounds ?? {};
    expect([keepDaily?.minValue, keepDaily?.maxValue, keepWeekly?.minValue, keepWeekly?.maxValue]).toEqual([
      1, 365, 0, 520,
    ]);
  });
});
