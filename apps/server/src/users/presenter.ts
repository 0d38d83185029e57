import type { User } from '@slipway/contract';
import type { UserRow } from './usersRepository.js';

/** The user as the browser sees it: never the GitHub token or anything internal. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    github_id: row.githubId,
    login: row.login,
    name: row.name,
    avatar_url: row.avatarUrl,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    whitelisted: row.whitelisted,
    profile_completed: row.profileCompleted,
  };
}
