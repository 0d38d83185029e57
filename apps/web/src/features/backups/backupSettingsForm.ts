import {
  type BackupSettings,
  DEFAULT_BACKUP_TIME,
  type UpdateBackupSettings,
  updateBackupSettingsSchema,
} from '@slipway/contract';
import type { SettingsFormRules } from '../../components/settings/useSettingsForm';
import { formatDateTime } from '../../lib/dates';
import { countOf, NOUNS } from '../../lib/plural';

/** The form as typed: both schedule kinds keep their text, so switching between them loses nothing. */
export interface BackupSettingsForm {
  enabled: boolean;
  kind: 'daily' | 'cron';
  time: string;
  expression: string;
  keepDaily: string;
  keepWeekly: string;
}

export type BackupSettingsProblems = Partial<
  Record<'time' | 'expression' | 'keepDaily' | 'keepWeekly', string>
>;

export const CRON_EXAMPLE = '0 3 * * *';

export function settingsForm(settings: BackupSettings): BackupSettingsForm {
  const { schedule } = settings;
  return {
    enabled: settings.enabled,
    kind: schedule.kind,
    time: schedule.kind === 'daily' ? schedule.time : DEFAULT_BACKUP_TIME,
    expression: schedule.kind === 'cron' ? schedule.expression : '',
    keepDaily: String(settings.keep_daily),
    keepWeekly: String(settings.keep_weekly),
  };
}

const FIELD_OF: Record<string, keyof BackupSettingsProblems> = {
  time: 'time',
  expression: 'expression',
  keep_daily: 'keepDaily',
  keep_weekly: 'keepWeekly',
};

/** A whole number typed in a field, or NaN (refused below with the field's own sentence). */
const wholeNumber = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/**
 * The request for the form, or what to fix: the contract's schema checks it as the server will (a time of day,
 * at least one daily backup); a cron expression must have five fields before the server reads it.
 */
export function settingsRequest(
  form: BackupSettingsForm,
): { settings: UpdateBackupSettings } | { problems: BackupSettingsProblems } {
  const problems: BackupSettingsProblems = {};
  const expression = form.expression.trim().replace(/\s+/g, ' ');
  if (form.kind === 'cron' && expression.split(' ').filter(Boolean).length !== 5) {
    problems.expression = `Enter a cron expression of five fields (minute hour day month weekday), e.g. ${CRON_EXAMPLE}`;
  }
  const keepDaily = wholeNumber(form.keepDaily);
  const keepWeekly = wholeNumber(form.keepWeekly);
  if (Number.isNaN(keepDaily)) problems.keepDaily = 'Enter a whole number of daily backups';
  if (Number.isNaN(keepWeekly)) problems.keepWeekly = 'Enter a whole number of weekly backups';
  const parsed = updateBackupSettingsSchema.safeParse({
    enabled: form.enabled,
    schedule: form.kind === 'daily' ? { kind: 'daily', time: form.time } : { kind: 'cron', expression },
    keep_daily: keepDaily,
    keep_weekly: keepWeekly,
  });
  if (parsed.success && Object.keys(problems).length === 0) return { settings: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[issue.path.length - 1])];
    if (field && !problems[field]) problems[field] = issue.message;
  }
  return { problems };
}

/** Whether the form says what is saved already (Save has nothing to do). */
export function sameSettings(form: BackupSettingsForm, saved: BackupSettings): boolean {
  const request = settingsRequest(form);
  if ('problems' in request) return false;
  const { settings } = request;
  return (
    settings.enabled === saved.enabled &&
    JSON.stringify(settings.schedule) === JSON.stringify(saved.schedule) &&
    settings.keep_daily === saved.keep_daily &&
    settings.keep_weekly === saved.keep_weekly
  );
}

/** The backup settings' form, for useSettingsForm. */
export const BACKUP_SETTINGS_FORM: SettingsFormRules<
  BackupSettings,
  BackupSettingsForm,
  BackupSettingsProblems,
  UpdateBackupSettings
> = {
  toForm: settingsForm,
  toRequest: settingsRequest,
  same: sameSettings,
  bounds: {
    keepDaily: updateBackupSettingsSchema.shape.keep_daily,
    keepWeekly: updateBackupSettingsSchema.shape.keep_weekly,
  },
};

/** 'Every day at 03:00 UTC', 'On the cron schedule 0 *\/6 * * * (UTC)', or 'Scheduled backups are off'. */
export function scheduleText(settings: BackupSettings): string {
  if (!settings.enabled) return 'Scheduled backups are off; Back Up Now still works.';
  const when =
    settings.schedule.kind === 'daily'
      ? `Every day at ${settings.schedule.time} UTC`
      : `On the cron schedule ${settings.schedule.expression} (UTC)`;
  return settings.next_backup_at
    ? `${when}; next backup ${formatDateTime(settings.next_backup_at)}.`
    : `${when}.`;
}

/** What retention keeps, in words ('the newest of each day for 7 days and of each week for 4 weeks'). */
export function retentionText(settings: Pick<BackupSettings, 'keep_daily' | 'keep_weekly'>): string {
  const periods = [
    settings.keep_daily > 0 ? `of each day for ${countOf(settings.keep_daily, NOUNS.day)}` : '',
    settings.keep_weekly > 0 ? `of each week for ${countOf(settings.keep_weekly, NOUNS.week)}` : '',
  ].filter(Boolean);
  const newest = periods.length ? ` the newest ${periods.join(' and ')},` : '';
  return `Keeps every backup of the last 24 hours,${newest} and always the newest verified one.`;
}
