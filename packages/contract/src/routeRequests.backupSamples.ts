import type { RequestSamples } from './requestSampleTypes.js';
import type { RouteName } from './routes.js';

/** Request samples of Workspace Settings → Backups. */
export const BACKUP_REQUEST_SAMPLES: Partial<Record<RouteName, RequestSamples>> = {
  setBackupSettings: {
    body: {
      valid: [
        { enabled: true, schedule: { kind: 'daily', time: '03:00' }, keep_daily: 7, keep_weekly: 4 },
        {
          enabled: false,
          schedule: { kind: 'cron', expression: '0 */6 * * *' },
          keep_daily: 1,
          keep_weekly: 0,
        },
      ],
      invalid: [
        {
          value: { enabled: true, schedule: { kind: 'daily', time: '25:00' }, keep_daily: 7, keep_weekly: 4 },
          message: 'Enter a time of day as HH:MM, e.g. 03:00',
        },
        {
          value: { enabled: true, schedule: { kind: 'daily', time: '03:00' }, keep_daily: 0, keep_weekly: 4 },
          message: 'Keep at least 1 daily backup',
        },
        { value: { enabled: 'yes' } },
      ],
    },
  },
  startRestore: {
    body: { valid: [{}, { service: 'db' }], invalid: [{ value: { service: '' } }] },
    params: {
      valid: [{ name: 'shop', backupId: '0b8f3c1e-5d6a-4f2b-9c7e-1a2b3c4d5e6f' }],
      invalid: [{ value: { name: 'shop', backupId: 'latest' }, message: 'Unknown backup' }],
    },
  },
};
