import { PREVIEW_DEFAULTS } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  PREVIEW_SETTINGS_FORM,
  sameSettings,
  settingsForm,
  settingsRequest,
  vmSizeChoices,
} from './previewSettingsForm';

const defaults = { ...PREVIEW_DEFAULTS };

describe('the preview settings form', () => {
  it('starts from the saved settings, numbers as text', () => {
    expect(settingsForm(defaults)).toEqual({
      enabled: false,
      vmSize: 'Standard_B2ats_v2',
      maxRunning: '3',
      inactivityDays: '7',
    });
    expect(sameSettings(settingsForm(defaults), defaults)).toBe(true);
    expect(sameSettings({ ...settingsForm(defaults), enabled: true }, defaults)).toBe(false);
  });

  it('sends the settings with numbers', () => {
    expect(settingsRequest({ ...settingsForm(defaults), enabled: true, maxRunning: ' 5 ' })).toEqual({
      settings: { enabled: true, vm_size: 'Standard_B2ats_v2', max_running: 5, inactivity_days: 7 },
    });
  });

  it('says in the contract’s words what is wrong, field by field', () => {
    const form = settingsForm(defaults);
    expect(settingsRequest({ ...form, maxRunning: '' })).toEqual({
      problems: { maxRunning: 'Enter a number of previews' },
    });
    expect(settingsRequest({ ...form, maxRunning: '2.5', inactivityDays: '0' })).toEqual({
      problems: { maxRunning: 'Enter a whole number of previews', inactivityDays: 'At least one day' },
    });
    expect(settingsRequest({ ...form, maxRunning: '21', inactivityDays: 'soon' })).toEqual({
      problems: {
        maxRunning: 'At most 20 previews can run at once',
        inactivityDays: 'Enter a number of days',
      },
    });
    expect(settingsRequest({ ...form, vmSize: 'huge' })).toEqual({
      problems: { vmSize: 'Choose one of the VM sizes' },
    });
  });

  it('offers every VM size, the smallest first', () => {
    expect(vmSizeChoices.map((choice) => choice.value)).toEqual(['Standard_B2ats_v2', 'Standard_B2als_v2']);
    expect(vmSizeChoices[0]?.label).toBe('1 GB RAM · 2 vCPUs');
  });

  it('bounds its number fields as the server does: 1 to 20 previews, 1 to 90 days', () => {
    const { maxRunning, inactivityDays } = PREVIEW_SETTINGS_FORM.bounds ?? {};
    expect([
      maxRunning?.minValue,
      maxRunning?.maxValue,
      inactivityDays?.minValue,
      inactivityDays?.maxValue,
    ]).toEqual([1, 20, 1, 90]);
  });
});
