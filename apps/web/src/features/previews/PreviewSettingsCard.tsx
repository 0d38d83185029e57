import type { PreviewSettings } from '@slipway/contract';
import { GitPullRequest } from 'lucide-react';
import { usePreviewSettings, useSetPreviewSettings } from '../../api/previews';
import { AsyncSection } from '../../components/AsyncSection';
import { SettingsCard, SettingsForm } from '../../components/settings/SettingsCard';
import { settingsLoadError } from '../../components/settings/SettingsLoadError';
import { useSettingsForm } from '../../components/settings/useSettingsForm';
import { CheckboxField, NumberInput, Select } from '../../components/ui';
import { PREVIEW_SETTINGS_FORM, vmSizeChoices } from './previewSettingsForm';

/** The switch, the VM size, how many at once and after how many idle days, saved together. */
export function PreviewSettingsCard({ workspace }: { workspace: string }) {
  const settings = usePreviewSettings(workspace);
  return (
    <SettingsCard
      title="Preview deployments"
      icon={GitPullRequest}
      description="Every pull request gets its own running copy of this workspace's app, at URLs of its own, removed when the pull request closes."
    >
      <AsyncSection query={settings} loading="card" failed={settingsLoadError}>
        {(saved) => <PreviewSettingsForm workspace={workspace} saved={saved} />}
      </AsyncSection>
    </SettingsCard>
  );
}

function PreviewSettingsForm({ workspace, saved }: { workspace: string; saved: PreviewSettings }) {
  const { form, change, field, numberField, state } = useSettingsForm(
    PREVIEW_SETTINGS_FORM,
    saved,
    useSetPreviewSettings(workspace),
  );

  return (
    <SettingsForm state={state} submitLabel="Save Preview Settings" savedText="Preview settings saved.">
      <CheckboxField
        role="switch"
        label="Deploy a preview of each pull request"
        hint="Off by default. Turning it off later leaves running previews until their pull requests close."
        checked={form.enabled}
        onChange={(enabled) => change({ enabled })}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Select label="VM size for previews" options={vmSizeChoices} {...field('vmSize')} />
        <NumberInput
          label="Most previews running at once"
          hint="Beyond this, a new preview waits for a slot."
          {...numberField('maxRunning')}
        />
        <NumberInput
          label="Remove after days without activity"
          hint="Even if its pull request stays open."
          {...numberField('inactivityDays')}
        />
      </div>
    </SettingsForm>
  );
}
