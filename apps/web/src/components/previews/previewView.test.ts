import { PREVIEW_STATES, type Preview } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  ageText,
  canApprove,
  IDLE_POLL_MS,
  MOVING_POLL_MS,
  PREVIEW_STATE_TONES,
  previewName,
  previewStatus,
  previewsPollInterval,
  previewUrls,
  removeQuestion,
  shortSha,
} from './previewView';

const preview: Preview = {
  number: 5,
  title: 'Change the greeting',
  branch: 'pr/5',
  head_sha: '0123456789abcdef0123456789abcdef01234567',
  author: 'operator',
  from_fork: false,
  needs_approval: false,
  approved_sha: null,
  state: 'live',
  cause: null,
  workspace: 'pr-5-shopfront',
  urls: { web: 'https://web-pr-5-shopfront.example.test', api: 'https://api-pr-5-shopfront.example.test' },
  pull_request_url: null,
  created_at: '2026-11-27T12:00:00.000Z',
  last_activity_at: '2026-11-27T12:00:00.000Z',
};
const inState = (state: Preview['state']) => ({ ...preview, state });

describe('a preview in the list', () => {
  it('has a colour for every state', () => {
    expect(PREVIEW_STATES.map((state) => PREVIEW_STATE_TONES[state])).toEqual([
      'caution',
      'neutral',
      'info',
      'success',
      'danger',
      'neutral',
    ]);
  });

  it('is read again every 3 s while one deploys, waits for a slot or is being removed, else every 15 s', () => {
    expect(previewsPollInterval(undefined)).toBe(IDLE_POLL_MS);
    expect(previewsPollInterval([])).toBe(15_000);
    expect(previewsPollInterval([inState('live'), inState('failed'), inState('awaiting_approval')])).toBe(
      IDLE_POLL_MS,
    );
    for (const state of ['deploying', 'waiting_for_slot', 'removing'] as const) {
      expect(previewsPollInterval([inState('live'), inState(state)])).toBe(MOVING_POLL_MS);
    }
    expect(MOVING_POLL_MS).toBe(3_000);
  });

  it('offers Approve only while it awaits approval', () => {
    expect(PREVIEW_STATES.filter((state) => canApprove(inState(state)))).toEqual(['awaiting_approval']);
  });

  it('shows the commit short, the name with its number, and its URLs by service', () => {
    expect(shortSha(preview.head_sha)).toBe('0123456');
    expect(previewName(preview)).toBe('#5 Change the greeting');
    expect(previewName({ ...preview, title: '' })).toBe('#5');
    expect(previewUrls(preview)).toEqual([
      { service: 'api', url: 'https://api-pr-5-shopfront.example.test' },
      { service: 'web', url: 'https://web-pr-5-shopfront.example.test' },
    ]);
  });

  it('names the preview in the removal question', () => {
    expect(removeQuestion(preview)).toBe(
      'Remove the preview of #5 Change the greeting? Its containers, volumes, images, route and logs go now; a new push to the pull request brings it back.',
    );
  });

  it('says how long ago it was opened', () => {
    const at = (iso: string) => ageText(preview.created_at, new Date(iso));
    expect(at('2026-11-27T12:00:30.000Z')).toBe('just now');
    expect(at('2026-11-27T12:01:00.000Z')).toBe('1 minute ago');
    expect(at('2026-11-27T12:59:59.000Z')).toBe('59 minutes ago');
    expect(at('2026-11-27T15:00:00.000Z')).toBe('3 hours ago');
    expect(at('2026-11-29T13:00:00.000Z')).toBe('2 days ago');
    expect(ageText('not a date')).toBe('');
  });

  it('shows its state as a badge that turns while the preview moves on by itself', () => {
    expect(previewStatus(inState('deploying'))).toEqual({ label: 'Deploying', tone: 'info', moving: true });
    expect(previewStatus(preview)).toEqual({ label: 'Live', tone: 'success', moving: false });
  });
});
