import type { PreviewSettings } from '@slipway/contract';
import { GitPullRequest, Save } from 'lucide-react';
import { useId } from 'react';
import { usePreviewSettings, useSetPreviewSettings } from '../../../api/previews';
import { Alert, Button, Card, CardBody, CardHeader, Input, Select, Spinner } from '../../../components/ui';
import { SettingsLoadError } from '../SettingsLoadError';
import { useSettingsForm } from '../useSettingsForm';
import { sameSettings, settingsForm, settingsRequest, vmSizeChoices } from './previewSettingsForm';

/** The switch, the VM size, how many at once and after how many idle days, saved together. */
export function PreviewSettingsCard({ workspace }: { workspace: string }) {
  const settings = usePreviewSettings(workspace);
  return (
    <Card>
      <CardHeader
        title="Preview deployments"
        icon={GitPullRequest}
        description="Every pull request gets its own running copy of this workspace's app, at URLs of its own, removed when the pull request closes."
      />
      <CardBody>
        {settings.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner className="text-accent-600" />
          </div>
        ) : settings.isError ? (
          <SettingsLoadError message={settings.error.message} />
        ) : (
          <SettingsForm workspace={workspace} saved={settings.data} />
        )}
      </CardBody>
    </Card>
  );
}

function SettingsForm({ workspace, saved }: { workspace: string; saved: PreviewSettings }) {
  const save = useSetPreviewSettings(workspace);
  const { form, problems, justSaved, change, submit } = useSettingsForm({
    saved,
    toForm: settingsForm,
    toRequest: settingsRequest,
    save,
  });
  const switchHintId = useId();

  return (
    <form className="space-y-5" onSubmit={(event) => void submit(event)} noValidate>
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
          Deploy a preview of each pull request
        </label>
        <p id={switchHintId} className="mt-0.5 pl-7 text-xs text-zinc-600">
          Off by default. Turning it off later leaves running previews until their pull requests close.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Select
          label="VM size for previews"
          options={vmSizeChoices}
          value={form.vmSize}
          error={problems.vmSize}
          onChange={(event) => change({ vmSize: event.target.value })}
        />
        <Input
          label="Most previews running at once"
          type="number"
          inputMode="numeric"
          min={1}
          max={20}
          value={form.maxRunning}
          error={problems.maxRunning}
          hint="Beyond this, a new preview waits for a slot."
          onChange={(event) => change({ maxRunning: event.target.value })}
        />
        <Input
          label="Remove after days without activity"
          type="number"
          inputMode="numeric"
          min={1}
          max={90}
          value={form.inactivityDays}
          error={problems.inactivityDays}
          hint="Even if its pull request stays open."
          onChange={(event) => change({ inactivityDays: event.target.value })}
        />
      </div>
      {save.error && <Alert tone="error">{save.error.message}</Alert>}
      {justSaved && <Alert tone="success">Preview settings saved.</Alert>}
      <div className="flex justify-end">
        <Button type="submit" icon={Save} loading={save.isPending} disabled={sameSettings(form, saved)}>
          Save Preview Settings
        </Button>
      </div>
    </form>
  );
}
