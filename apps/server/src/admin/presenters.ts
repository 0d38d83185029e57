import type { AdminUser, WhitelistedEmail } from '@slipway/contract';
import type { emailWhitelist } from '../infra/db/schema.js';
import type { UserRow } from '../users/usersRepository.js';

/** A user as the admin panel sees it: identity and access state, never tokens. */
export function presentAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    github_id: row.githubId,
    login: row.login,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    avatar_url: row.avatarUrl,
    whitelisted: row.whitelisted,
    on_waiting_list: row.onWaitingList,
    created_at: row.createdAt.toISOString(),
    last_login: row.lastLogin?.toISOString() ?? null,
  };
}

export function presentWhitelistedEmail(row: typeof emailWhitelist.$inferSelect): WhitelistedEmail {
  return { email: row.email, notes: row.notes, added_by: row.addedBy, added_at: row.addedAt.toISOString() };
}

/** The VM list's status text: the spec's UI shows 'VM running' in green and anything else as is. */
export function vmStatusText(state: string): string {
  return `VM ${state}`;
}
