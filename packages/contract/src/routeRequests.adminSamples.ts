import { type RequestSamples, tooLong } from './requestSampleTypes.js';
import type { RouteName } from './routes.js';

/** Request samples of the admin panel's routes: sign-in, whitelist, logs, audit, Redis, impersonation. */
export const ADMIN_REQUEST_SAMPLES: Partial<Record<RouteName, RequestSamples>> = {
  adminSignIn: {
    body: {
      valid: [{ adminPassword: 'secret' }],
      invalid: [
        { value: {}, message: 'Enter the admin password' },
        { value: { adminPassword: '' }, message: 'Enter the admin password' },
        { value: { adminPassword: tooLong(1024) }, message: 'Invalid admin password' },
      ],
    },
  },
  bulkWhitelist: {
    body: {
      valid: [['u1', 'u2'], { user_ids: ['u1'] }],
      invalid: [
        { value: [], message: 'Choose at least one user' },
        { value: Array.from({ length: 501 }, (_, i) => `u${i}`) },
        { value: { user_ids: 'u1' } },
      ],
    },
  },
  addWhitelistEmail: {
    body: {
      valid: [{ email: 'Ada@Example.com' }, { email: 'ada@example.com', notes: 'beta', added_by: 'admin' }],
      invalid: [
        { value: {}, message: 'Email is required' },
        { value: { email: 'ada' }, message: 'Please enter a valid email address' },
        {
          value: { email: 'a@b.co', notes: tooLong(1000) },
          message: 'Notes must be at most 1000 characters',
        },
      ],
    },
  },
  systemLogTail: {
    params: {
      valid: [{ service: 'backend' }],
      invalid: [{ value: { service: 'kernel' }, message: 'Unknown log service: use backend or frontend' }],
    },
    query: {
      valid: [{}, { lines: '100' }],
      invalid: [{ value: { lines: '1001' } }, { value: { lines: '0' } }],
    },
  },
  auditLog: {
    query: {
      valid: [{}, { limit: '1' }, { limit: '500' }],
      invalid: [
        { value: { limit: '501' }, message: 'The limit must be a number from 1 to 500' },
        { value: { limit: '0' }, message: 'The limit must be a number from 1 to 500' },
        { value: { limit: 'all' }, message: 'The limit must be a number from 1 to 500' },
      ],
    },
  },
  redisFlush: {
    body: {
      valid: [{ type: 'sessions' }, { type: 'all' }],
      invalid: [
        {
          value: { type: 'everything' },
          message: 'The type must be one of sessions, jobs, workflows or all',
        },
      ],
    },
  },
  openImpersonationLink: {
    query: {
      valid: [{ token: 'tok' }],
      invalid: [
        { value: {}, message: 'The impersonation token is missing' },
        { value: { token: tooLong(128) } },
      ],
    },
  },
  redeemImpersonationToken: {
    body: { valid: [{ token: 'tok' }], invalid: [{ value: { token: '' } }] },
  },
};
