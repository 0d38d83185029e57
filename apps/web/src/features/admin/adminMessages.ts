import type { BulkWhitelistResult, EmailStatus, WhitelistUserResult } from '@slipway/contract';
import axios from 'axios';

/** Spec §8: load failures are 'Failed to load {what}: ' + the server detail or the error message. */
export const LOAD_FAILURE = {
  stats: 'Failed to load stats: ',
  users: 'Failed to load users: ',
  whitelistUsers: 'Failed to load whitelist users: ',
  vms: 'Failed to load VMs: ',
  workspaces: 'Failed to load workspaces: ',
  systemLogs: 'Failed to load system logs: ',
  auditLog: 'Failed to load the audit log: ',
  redis: 'Failed to load Redis info: ',
  whitelistedEmails: 'Failed to load whitelisted emails: ',
} as const;

export const ACTION_FAILURE = {
  flush: 'Failed to flush Redis: ',
  whitelist: '❌ Failed to whitelist user: ',
  removeFromWhitelist: 'Failed to remove from whitelist: ',
  impersonate: 'Failed to create impersonation token: ',
  deleteVm: 'Failed to delete VM: ',
  addEmail: 'Failed to add email to whitelist: ',
  removeEmail: 'Failed to remove email from whitelist: ',
  bulkWhitelist: '❌ Failed to bulk whitelist: ',
} as const;

/** How long a notice stays (spec §4): 3 s for flush and email add/remove, 5 s single, 6 s bulk. */
export const NOTICE_MS = { flush: 3000, email: 3000, whitelist: 5000, bulkWhitelist: 6000 } as const;

export const EMAIL_ADDED = '✅ Email added to whitelist successfully';
export const EMAIL_REMOVED = '✅ Email removed from whitelist';
export const NO_EMAIL_NOTE = 'No email sent (user has no email address)';

/** The server's `detail` (or `error`) when it answered, else the error's own message. */
export function errorDetail(error: unknown): string {
  if (axios.isAxiosError(error)) {
    const body = error.response?.data as { detail?: unknown; error?: unknown } | undefined;
    if (typeof body?.detail === 'string' && body.detail) return body.detail;
    if (typeof body?.error === 'string' && body.error) return body.error;
  }
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

export const failureText = (prefix: string, error: unknown) => `${prefix}${errorDetail(error)}`;

/** What happened to the welcome email of one whitelisted user. */
export function emailNote(status: EmailStatus | undefined): string {
  if (!status) return NO_EMAIL_NOTE;
  if (status.attempted) {
    return status.sent
      ? `📧 Welcome email sent to ${status.recipient}`
      : `Email failed: ${status.error || 'Unknown error'}`;
  }
  // Not attempted: no address, or (the server says) already whitelisted.
  return status.recipient ? (status.note ?? NO_EMAIL_NOTE) : NO_EMAIL_NOTE;
}

export function whitelistSuccessText(result: WhitelistUserResult): string {
  return `✅ User ${result.user.login} whitelisted successfully. ${emailNote(result.email_status)}`;
}

export interface BulkCounts {
  whitelisted: number;
  failed: number;
  emailsSent: number;
  emailsFailed: number;
  noEmail: number;
}

/** Counted from the per-user results (status 'success' and its email_status). */
export function bulkCounts(result: BulkWhitelistResult): BulkCounts {
  const succeeded = result.results.filter((r) => r.status === 'success');
  return {
    whitelisted: succeeded.length,
    failed: result.results.length - succeeded.length,
    emailsSent: succeeded.filter((r) => r.email_status?.sent).length,
    emailsFailed: succeeded.filter((r) => r.email_status?.attempted && !r.email_status.sent).length,
    noEmail: succeeded.filter((r) => !r.email_status?.recipient).length,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function bulkSummaryText(result: BulkWhitelistResult): string {
  const c = bulkCounts(result);
  const parts = [
    `${plural(c.whitelisted, 'user', 'users')} whitelisted`,
    `${plural(c.emailsSent, 'email', 'emails')} sent`,
    `${plural(c.emailsFailed, 'email', 'emails')} failed`,
    `${plural(c.noEmail, 'user', 'users')} without an email`,
  ];
  if (c.failed > 0) parts.push(`${plural(c.failed, 'user', 'users')} could not be whitelisted`);
  return `✅ Bulk whitelist complete: ${parts.join(', ')}`;
}

/** Spec §5 confirmation texts. */
export function flushConfirmText(type: string): string {
  return type === 'all'
    ? 'This will flush ALL Redis data including sessions, job queue, and workflows. Are you sure?'
    : `This will flush all ${type} data. Are you sure?`;
}
export const deleteVmConfirmText = (name: string) => `Are you sure you want to delete VM: ${name}?`;
export const removeEmailConfirmText = (email: string) => `Remove ${email} from whitelist?`;

/** Email whitelist form (spec §5): email trimmed and non-blank; notes trimmed, null when empty. */
export function emailWhitelistInput(
  email: string,
  notes: string,
): { email: string; notes: string | null } | null {
  const trimmed = email.trim();
  if (!trimmed) return null;
  return { email: trimmed, notes: notes.trim() || null };
}
