import type { RouteName } from './routes.js';

/** A preview as listed: a collaborator's pull request, Live. */
const PREVIEW_SAMPLE = {
  number: 7,
  title: 'Checkout: remember the basket',
  branch: 'basket',
  head_sha: '3f786850e387550fdab836ed7e6dc881de23001b',
  author: 'ada',
  from_fork: false,
  needs_approval: false,
  approved_sha: null,
  state: 'live',
  cause: null,
  workspace: 'pr-7-shop',
  urls: { web: 'https://web-pr-7-shop.slipway.example' },
  pull_request_url: 'https://github.com/ada/shop/pull/7',
  created_at: '2026-11-27T11:58:00.000Z',
  last_activity_at: '2026-11-27T12:00:00.000Z',
};
/** A stranger's pull request from a fork, not run until approved. */
const FORK_PREVIEW_SAMPLE = {
  ...PREVIEW_SAMPLE,
  number: 8,
  title: 'Fix typo',
  branch: 'patch-1',
  author: 'stranger',
  from_fork: true,
  needs_approval: true,
  state: 'awaiting_approval',
  cause: 'A pull request from a fork runs only once someone with write access approves its commit',
  workspace: 'pr-8-shop',
  urls: {},
  pull_request_url: 'https://github.com/ada/shop/pull/8',
};

/** Answers of Workspace Settings → Previews, for the response schema tests. */
export const PREVIEW_RESPONSE_SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  getPreviewSettings: {
    200: { enabled: false, vm_size: 'Standard_B2ats_v2', max_running: 3, inactivity_days: 7 },
  },
  setPreviewSettings: {
    200: { enabled: true, vm_size: 'Standard_B2ats_v2', max_running: 3, inactivity_days: 7 },
  },
  listPreviews: { 200: [FORK_PREVIEW_SAMPLE, PREVIEW_SAMPLE] },
  redeployPreview: { 200: { ...PREVIEW_SAMPLE, state: 'deploying' } },
  approvePreview: {
    200: {
      ...FORK_PREVIEW_SAMPLE,
      approved_sha: FORK_PREVIEW_SAMPLE.head_sha,
      state: 'deploying',
      cause: null,
    },
  },
  removePreview: { 200: { success: true, message: 'Preview of pull request 7 removed' } },
  listPreviewVariables: {
    200: [
      { key: 'DATABASE_URL', also_for_previews: true, has_preview_value: true },
      { key: 'STRIPE_KEY', also_for_previews: false, has_preview_value: false },
    ],
  },
  setPreviewVariable: { 200: { key: 'DATABASE_URL', also_for_previews: true, has_preview_value: true } },
};
