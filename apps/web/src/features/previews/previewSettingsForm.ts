import { type PreviewSettings, previewSettingsSchema, VM_SIZES } from '@slipway/contract';
import type { SettingsFormRules } from '../../components/settings/useSettingsForm';

/** The form as typed: the numbers stay text until Save, so a half-typed one is not replaced under the cursor. */
export interface PreviewSettingsForm {
  enabled: boolean;
  vmSize: string;
  maxRunning: string;
  inactivityDays: string;
}

export type PreviewSettingsProblems = Partial<Record<'vmSize' | 'maxRunning' | 'inactivityDays', string>>;

export const settingsForm = (settings: PreviewSettings): PreviewSettingsForm => ({
  enabled: settings.enabled,
  vmSize: settings.vm_size,
  maxRunning: String(settings.max_running),
  inactivityDays: String(settings.inactivity_days),
});

/** Empty text is no number (not 0): the schema's own sentence says what to enter. */
const asNumber = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

const FIELDS = { vm_size: 'vmSize', max_running: 'maxRunning', inactivity_days: 'inactivityDays' } as const;

/** The settings to PUT, checked by the contract's schema first; its sentences, field by field, when not. */
export function settingsRequest(
  form: PreviewSettingsForm,
): { settings: PreviewSettings } | { problems: PreviewSettingsProblems } {
  const parsed = previewSettingsSchema.safeParse({
    enabled: form.enabled,
    vm_size: form.vmSize,
    max_running: asNumber(form.maxRunning),
    inactivity_days: asNumber(form.inactivityDays),
  });
  if (parsed.success) return { settings: parsed.data };
  const problems: PreviewSettingsProblems = {};
  for (const issue of parsed.error.issues) {
    const field = FIELDS[issue.path[0] as keyof typeof FIELDS];
    if (field && !problems[field]) problems[field] = issue.message;
  }
  return { problems };
}

export const sameSettings = (form: PreviewSettingsForm, settings: PreviewSettings) =>
  JSON.stringify(form) === JSON.stringify(settingsForm(settings));

/** The preview settings' form, for useSettingsForm. */
export const PREVIEW_SETTINGS_FORM: SettingsFormRules<
  PreviewSettings,
  PreviewSettingsForm,
  PreviewSettingsProblems,
  PreviewSettings
> = {
  toForm: settingsForm,
  toRequest: settingsRequest,
  same: sameSettings,
  bounds: {
    maxRunning: previewSettingsSchema.shape.max_running,
    inactivityDays: previewSettingsSchema.shape.inactivity_days,
  },
};

/** The VM sizes, smallest first, as the pricing names them: '1 GB RAM · 2 vCPUs'. */
export const vmSizeChoices = VM_SIZES.map((size) => ({
  value: size.id,
  label: `${size.name} · ${size.vcpus} vCPUs`,
}));
