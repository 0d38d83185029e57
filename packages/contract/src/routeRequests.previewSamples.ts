import type { RequestSamples } from './requestSampleTypes.js';
import type { RouteName } from './routes.js';

/** Request samples of Workspace Settings → Previews and the previews' rows. */
export const PREVIEW_REQUEST_SAMPLES: Partial<Record<RouteName, RequestSamples>> = {
  setPreviewSettings: {
    body: {
      valid: [
        {},
        { enabled: true },
        { enabled: true, vm_size: 'Standard_B2als_v2', max_running: 5, inactivity_days: 14 },
      ],
      invalid: [
        { value: { vm_size: 'Huge' }, message: 'Choose one of the VM sizes' },
        { value: { max_running: 0 }, message: 'At least one preview must be able to run' },
        { value: { max_running: 2.5 }, message: 'Enter a whole number of previews' },
        { value: { inactivity_days: 400 }, message: 'At most 90 days' },
        { value: { enabled: 'yes' } },
      ],
    },
  },
  approvePreview: {
    params: {
      valid: [
        { name: 'shop', number: '7' },
        { name: 'shop', number: 12 },
      ],
      invalid: [
        { value: { name: 'shop', number: 'seven' }, message: 'A pull request number is a whole number' },
        { value: { name: 'shop', number: '0' }, message: 'A pull request number is a whole number' },
      ],
    },
  },
  setPreviewVariable: {
    body: {
      valid: [
        {},
        { also_for_previews: true },
        { preview_value: 'postgres://preview' },
        { preview_value: null },
      ],
      invalid: [
        { value: { also_for_previews: 'yes' } },
        { value: { preview_value: 7 }, message: 'A variable value must be text' },
      ],
    },
  },
};
