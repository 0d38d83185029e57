import type { AdminUser, BulkWhitelistResult } from '@slipway/contract';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import {
  bulkSummaryText,
  emailWhitelistInput,
  errorDetail,
  failureText,
  flushConfirmText,
  LOAD_FAILURE,
  whitelistSuccessText,
} from './adminMessages';

const user = { login: 'wanda' } as AdminUser;

function axiosFailure(status: number, data: unknown) {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(`Request failed with status code ${status}`, 'ERR', config, null, {
    status,
    statusText: '',
    headers: {},
    config,
    data,
  });
}

describe('errorDetail', () => {
  it('prefers the server detail, then its error, then the message', () => {
    expect(errorDetail(axiosFailure(404, { error: 'User not found', detail: 'No such user' }))).toBe(
      'No such user',
    );
    expect(errorDetail(axiosFailure(404, { error: 'User not found' }))).toBe('User not found');
    expect(errorDetail(axiosFailure(500, '<html>'))).toBe('Request failed with status code 500');
    expect(errorDetail(new Error('Network Error'))).toBe('Network Error');
  });
  it('builds load banners', () => {
    expect(failureText(LOAD_FAILURE.vms, new Error('boom'))).toBe('Failed to load VMs: boom');
  });
});

describe('whitelistSuccessText', () => {
  it('says where the welcome email went', () => {
    const sent = { attempted: true, sent: true, recipient: 'w@x.test', error: null };
    expect(whitelistSuccessText({ success: true, user, email_status: sent })).toBe(
      '✅ User wanda whitelisted successfully. 📧 Welcome email sent to w@x.test',
    );
  });
  it('says when it failed, with Unknown error as the fallback', () => {
    const failed = { attempted: true, sent: false, recipient: 'w@x.test', error: null };
    expect(whitelistSuccessText({ success: true, user, email_status: failed })).toContain(
      'Email failed: Unknown error',
    );
    expect(
      whitelistSuccessText({ success: true, user, email_status: { ...failed, error: 'ECONNREFUSED' } }),
    ).toContain('Email failed: ECONNREFUSED');
  });
  it('says when there was no address', () => {
    const none = { attempted: false, sent: false, recipient: null, error: null };
    expect(whitelistSuccessText({ success: true, user, email_status: none })).toContain(
      'No email sent (user has no email address)',
    );
  });
});

describe('bulkSummaryText', () => {
  it('counts whitelisted users, emails sent and failed, and users without an email', () => {
    const result: BulkWhitelistResult = {
      results: [
        {
          user_id: '1',
          status: 'success',
          email_status: { attempted: true, sent: true, recipient: 'a@x', error: null },
        },
        {
          user_id: '2',
          status: 'success',
          email_status: { attempted: false, sent: false, recipient: null, error: null },
        },
        {
          user_id: '3',
          status: 'success',
          email_status: { attempted: true, sent: false, recipient: 'c@x', error: 'x' },
        },
        { user_id: '4', status: 'error', error: 'User not found' },
      ],
      summary: { total: 4, whitelisted: 3, failed: 1, emails_sent: 1, emails_failed: 1, no_email: 1 },
    };
    expect(bulkSummaryText(result)).toBe(
      '✅ Bulk whitelist complete: 3 users whitelisted, 1 email sent, 1 email failed, 1 user without an email, 1 user could not be whitelisted',
    );
  });
});

describe('confirmations and form input', () => {
  it('uses the spec texts for flushing', () => {
    expect(flushConfirmText('all')).toBe(
      'This will flush ALL Redis data including sessions, job queue, and workflows. Are you sure?',
    );
    expect(flushConfirmText('sessions')).toBe('This will flush all sessions data. Are you sure?');
  });
  it('trims the email, refuses a blank one, and sends empty notes as null', () => {
    expect(emailWhitelistInput('   ', 'x')).toBeNull();
    expect(emailWhitelistInput(' a@b.test ', '  ')).toEqual({ email: 'a@b.test', notes: null });
    expect(emailWhitelistInput('a@b.test', ' beta ')).toEqual({ email: 'a@b.test', notes: 'beta' });
  });
});
