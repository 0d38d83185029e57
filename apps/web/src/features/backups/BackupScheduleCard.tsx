import {
  type BackupSettings,
  DEFAULT_KEEP_DAILY,
  DEFAULT_KEEP_WEEKLY,
  MISSED_BACKUP_FACTOR,
} from '@slipway/contract';
import { CalendarClock } from 'lucide-react';
import { useSetBackupSettings } from '../../api/backups';
import { SettingsCard, SettingsForm } from '../../components/settings/SettingsCard';
import { useSettingsForm } from '../../components/settings/useSettingsForm';
import { CheckboxField, Input, NumberInput, Radio } from '../../components/ui';
import { BACKUP_SETTINGS_FORM, CRON_EXAMPLE, retentionText, scheduleText } from './backupSettingsForm';

const SCHEDULE_KINDS = [
  { kind: 'daily', label: 'Daily at a time' },
  { kind: 'cron', label: 'Cron expression' },
] as const;

/** The switch, when (daily at a time, or a cron expression) and how many to keep, saved together. */
export function BackupScheduleCard({ workspace, saved }: { workspace: string; saved: BackupSettings }) {
  const { form, change, field, numberField, state } = useSettingsForm(
    BACKUP_SETTINGS_FORM,
    saved,
    useSetBackupSettings(workspace),
  );

  return (
    <SettingsCard
      title="Schedule"
      icon={CalendarClock}
      description="Every named volume of the workspace: databases by their own consistent dump, other volumes as files. Each backup is restored into a throwaway container and checked before it is called Verified."
    >
      <SettingsForm state={state} submitLabel="Save Backup Settings" savedText="Backup settings saved.">
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-zinc-500">Repository</dt>
          <dd className="break-words text-zinc-900" data-testid="backup-repository">
            {saved.repository}, encrypted and deduplicated by restic
          </dd>
          <dt className="text-zinc-500">Now</dt>
          <dd className="text-zinc-900">{scheduleText(saved)}</dd>
          <dt className="text-zinc-500">Retention</dt>
          <dd className="text-zinc-900">{retentionText(saved)}</dd>
        </dl>
        <CheckboxField
          role="switch"
          label="Back up on a schedule"
          hint={`A failed backup, or none verified within ${MISSED_BACKUP_FACTOR} × the schedule, alerts your notification channels.`}
          checked={form.enabled}
          onChange={(enabled) => change({ enabled })}
        />
        <fieldset className="space-y-3" disabled={!form.enabled}>
          <legend className="text-sm font-medium text-zinc-800">When (UTC)</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {SCHEDULE_KINDS.map(({ kind, label }) => (
              <Radio
                key={kind}
                name="backup-schedule-kind"
                checked={form.kind === kind}
                onChange={() => change({ kind })}
                label={label}
              />
            ))}
          </div>
          {form.kind === 'daily' ? (
            <Input label="Time of day" type="time" className="max-w-40" {...field('time')} />
          ) : (
            <Input
              label="Cron expression"
              className="max-w-64 font-mono"
              placeholder={CRON_EXAMPLE}
              autoComplete="off"
              spellCheck={false}
              hint="Five fields: minute hour day-of-month month day-of-week."
              {...field('expression')}
            />
          )}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberInput
            label="Daily backups to keep"
            hint={`The newest backup of each of the last N days (default ${DEFAULT_KEEP_DAILY}).`}
            {...numberField('keepDaily')}
          />
          <NumberInput
            label="Weekly backups to keep"
            hint={`The newest backup of each of the last M weeks (default ${DEFAULT_KEEP_WEEKLY}).`}
            {...numberField('keepWeekly')}
          />
        </div>
      </SettingsForm>
    </SettingsCard>
  );
}
