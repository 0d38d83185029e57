import {
  type BackupSettings,
  DEFAULT_KEEP_DAILY,
  DEFAULT_KEEP_WEEKLY,
  MISSED_BACKUP_FACTOR,
} from '@slipway/contract';
import { CalendarClock, Save } from 'lucide-react';
import { useId } from 'react';
import { useSetBackupSettings } from '../../../api/backups';
import { Alert, Button, Card, CardBody, CardHeader, Input } from '../../../components/ui';
import { useSettingsForm } from '../useSettingsForm';
import {
  CRON_EXAMPLE,
  retentionText,
  sameSettings,
  scheduleText,
  settingsForm,
  settingsRequest,
} from './backupSettingsForm';

/** The switch, when (daily at a time, or a cron expression) and how many to keep, saved together. */
export function BackupScheduleCard({ workspace, saved }: { workspace: string; saved: BackupSettings }) {
  const save = useSetBackupSettings(workspace);
  const { form, problems, justSaved, change, submit } = useSettingsForm({
    saved,
    toForm: settingsForm,
    toRequest: settingsRequest,
    save,
  });
  const switchHintId = useId();

  return (
    <Card>
      <CardHeader
        title="Schedule"
        icon={CalendarClock}
        description="Every named volume of the workspace: databases by their own consistent dump, other volumes as files. Each backup is restored into a throwaway container and checked before it is called Verified."
      />
      <CardBody>
        <form className="space-y-5" onSubmit={(event) => void submit(event)} noValidate>
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
          <div className="rounded-lg border border-zinc-200 px-3 py-2.5 has-[:checked]:border-accent-300 has-[:checked]:bg-accent-50/40">
            <label className="flex cursor-pointer items-center gap-3 text-sm font-medium text-zinc-900">
              <input
                type="checkbox"
                role="switch"
                aria-checked={form.enabled}
                className="h-4 w-4 shrink-0 rounded border-zinc-300 accent-accent-600"
                checked={form.enabled}
                onChange={(event) => change({ enabled: event.target.checked })}
                aria-describedby={switchHintId}
              />
              Back up on a schedule
            </label>
            <p id={switchHintId} className="mt-0.5 pl-7 text-xs text-zinc-600">
              A failed backup, or none verified within {MISSED_BACKUP_FACTOR} × the schedule, alerts your
              notification channels.
            </p>
          </div>
          <fieldset className="space-y-3" disabled={!form.enabled}>
            <legend className="text-sm font-medium text-zinc-800">When (UTC)</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-zinc-800">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="backup-schedule-kind"
                  className="accent-accent-600"
                  checked={form.kind === 'daily'}
                  onChange={() => change({ kind: 'daily' })}
                />
                Daily at a time
              </label>
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name="backup-schedule-kind"
                  className="accent-accent-600"
                  checked={form.kind === 'cron'}
                  onChange={() => change({ kind: 'cron' })}
                />
                Cron expression
              </label>
            </div>
            {form.kind === 'daily' ? (
              <Input
                label="Time of day"
                type="time"
                className="max-w-40"
                value={form.time}
                error={problems.time}
                onChange={(event) => change({ time: event.target.value })}
              />
            ) : (
              <Input
                label="Cron expression"
                className="max-w-64 font-mono"
                placeholder={CRON_EXAMPLE}
                autoComplete="off"
                spellCheck={false}
                value={form.expression}
                error={problems.expression}
                hint="Five fields: minute hour day-of-month month day-of-week."
                onChange={(event) => change({ expression: event.target.value })}
              />
            )}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="Daily backups to keep"
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              value={form.keepDaily}
              error={problems.keepDaily}
              hint={`The newest backup of each of the last N days (default ${DEFAULT_KEEP_DAILY}).`}
              onChange={(event) => change({ keepDaily: event.target.value })}
            />
            <Input
              label="Weekly backups to keep"
              type="number"
              inputMode="numeric"
              min={0}
              max={520}
              value={form.keepWeekly}
              error={problems.keepWeekly}
              hint={`The newest backup of each of the last M weeks (default ${DEFAULT_KEEP_WEEKLY}).`}
              onChange={(event) => change({ keepWeekly: event.target.value })}
            />
          </div>
          {save.error && <Alert tone="error">{save.error.message}</Alert>}
          {justSaved && <Alert tone="success">Backup settings saved.</Alert>}
          <div className="flex justify-end">
            <Button type="submit" icon={Save} loading={save.isPending} disabled={sameSettings(form, saved)}>
              Save Backup Settings
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
