import { PREVIEW_STATE_LABELS, type Preview, type PreviewState } from '@slipway/contract';
import { timeAgo } from '../../lib/plural';
import { statusOf } from '../StatusBadge';
import type { BadgeTone } from '../ui';

/** Grey while it waits, blue while it moves, green when it serves, orange when a person must act, red when it failed. */
export const PREVIEW_STATE_TONES = {
  awaiting_approval: 'caution',
  waiting_for_slot: 'neutral',
  deploying: 'info',
  live: 'success',
  failed: 'danger',
  removing: 'neutral',
} as const satisfies Record<PreviewState, BadgeTone>;

/** The states a preview leaves by itself: the list is read again soon while one is in them. */
const MOVING: ReadonlySet<PreviewState> = new Set(['waiting_for_slot', 'deploying', 'removing']);

export const isMoving = (preview: Preview) => MOVING.has(preview.state);

const previewStatusOf = statusOf(PREVIEW_STATE_LABELS, PREVIEW_STATE_TONES);

/** The state's badge: turning while the preview moves on by itself. */
export const previewStatus = (preview: Preview) => previewStatusOf(preview.state, isMoving(preview));

/** While a preview is deploying (or waiting for its slot, or being removed). */
export const MOVING_POLL_MS = 3_000;
/** Otherwise: pull requests open and close by themselves, so a new one shows up without a reload. */
export const IDLE_POLL_MS = 15_000;

export const previewsPollInterval = (previews: Preview[] | undefined): number =>
  previews?.some(isMoving) ? MOVING_POLL_MS : IDLE_POLL_MS;

/** Approve is offered only while the preview waits for it. */
export const canApprove = (preview: Preview) => preview.state === 'awaiting_approval';

/** The first seven characters of a commit, as git shows it. */
export const shortSha = (sha: string) => sha.slice(0, 7);

/** '#5 Change the greeting'. */
export const previewName = (preview: Preview) => `#${preview.number} ${preview.title}`.trimEnd();

export const removeQuestion = (preview: Preview) =>
  `Remove the preview of ${previewName(preview)}? Its containers, volumes, images, route and logs go now; a new push to the pull request brings it back.`;

/** Its services' URLs, by service name. */
export const previewUrls = (preview: Preview) =>
  Object.entries(preview.urls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([service, url]) => ({ service, url }));

const MINUTE_MS = 60_000;

/** 'just now', '5 minutes ago', '3 hours ago', '2 days ago': how long since it was opened. */
export function ageText(since: string, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - Date.parse(since)) / MINUTE_MS);
  if (!Number.isFinite(minutes)) return '';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return timeAgo(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return timeAgo(hours, 'hour');
  return timeAgo(Math.floor(hours / 24), 'day');
}
