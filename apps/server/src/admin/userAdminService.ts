import type {
  AdminUserList,
  BulkWhitelistResult,
  EmailStatus,
  WhitelistedEmail,
  WhitelistUserResult,
} from '@slipway/contract';
import { desc, eq } from 'drizzle-orm';
import { DomainError, notFound } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import { emailWhitelist } from '../infra/db/schema.js';
import type { Mailer } from '../infra/mail/mailer.js';
import type { UserListFilter, UserRow, UsersRepository } from '../users/usersRepository.js';
import { presentAdminUser, presentWhitelistedEmail } from './presenters.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const userNotFound = () => notFound('User not found');

export function welcomeEmail(user: UserRow, publicUrl: string) {
  const name = user.firstName || user.login;
  return {
    subject: "Welcome to Slipway: you're off the waiting list",
    text: [
      `Hi ${name},`,
      '',
      'Your Slipway beta access is ready. Sign in with GitHub and deploy your first repository:',
      `${publicUrl}/repository-picker`,
      '',
      'The Slipway team',
    ].join('\n'),
  };
}

/** Users, the beta whitelist and the email whitelist, as the admin panel manages them. */
export function createUserAdminService(deps: {
  db: Db;
  users: UsersRepository;
  mailer: Mailer;
  publicUrl: string;
}) {
  const { db } = deps;

  async function findUser(id: string): Promise<UserRow> {
    if (!UUID.test(id)) throw userNotFound();
    const row = await deps.users.findFresh(id);
    if (!row) throw userNotFound();
    return row;
  }

  async function sendWelcome(user: UserRow): Promise<EmailStatus> {
    if (!user.email) {
      return {
        attempted: false,
        sent: false,
        recipient: null,
        error: null,
        note: 'No email sent (user has no email address)',
      };
    }
    const result = await deps.mailer.send({ to: user.email, ...welcomeEmail(user, deps.publicUrl) });
    return { attempted: true, sent: result.sent, recipient: user.email, error: result.error ?? null };
  }

  /** Lets the user in; the welcome email goes out only when they were not already in. */
  async function whitelist(id: string): Promise<WhitelistUserResult> {
    const before = await findUser(id);
    const after = await deps.users.setAccess(id, true);
    const user = after ?? before;
    const email_status: EmailStatus = before.whitelisted
      ? {
          attempted: false,
          sent: false,
          recipient: user.email,
          error: null,
          note: 'Already whitelisted; no email sent',
        }
      : await sendWelcome(user);
    return { success: true, user: presentAdminUser(user), email_status };
  }

  return {
    async listUsers(filter: UserListFilter): Promise<AdminUserList> {
      const rows = await deps.users.list(filter);
      return { users: rows.map(presentAdminUser), total: rows.length };
    },

    whitelist,

    async removeFromWhitelist(id: string) {
      await findUser(id);
      const row = await deps.users.setAccess(id, false);
      if (!row) throw userNotFound();
      return { success: true as const, user: presentAdminUser(row) };
    },

    async bulkWhitelist(ids: string[]): Promise<BulkWhitelistResult> {
      const results: BulkWhitelistResult['results'] = [];
      // One at a time: each result says what happened to that user, and the SMTP server is not flooded.
      for (const userId of new Set(ids)) {
        try {
          const { user, email_status } = await whitelist(userId);
          results.push({ user_id: userId, login: user.login, status: 'success', email_status });
        } catch (error) {
          const message = error instanceof DomainError ? error.message : 'Could not whitelist this user';
          results.push({ user_id: userId, status: 'error', error: message });
        }
      }
      const succeeded = results.filter((r) => r.status === 'success');
      return {
        results,
        summary: {
          total: results.length,
          whitelisted: succeeded.length,
          failed: results.length - succeeded.length,
          emails_sent: succeeded.filter((r) => r.email_status?.sent).length,
          emails_failed: succeeded.filter((r) => r.email_status?.attempted && !r.email_status.sent).length,
          no_email: succeeded.filter((r) => !r.email_status?.recipient).length,
        },
      };
    },

    async listEmails(): Promise<{ emails: WhitelistedEmail[]; total: number }> {
      const rows = await db.select().from(emailWhitelist).orderBy(desc(emailWhitelist.addedAt));
      return { emails: rows.map(presentWhitelistedEmail), total: rows.length };
    },

    /** Adds the email; a user who already completed their profile with it is let in now. */
    async addEmail(input: { email: string; notes: string | null; added_by: string }) {
      const [row] = await db
        .insert(emailWhitelist)
        .values({ email: input.email, notes: input.notes, addedBy: input.added_by })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new DomainError('conflict', 'That email is already on the whitelist');
      const waiting = await deps.users.waitingWithEmail(input.email);
      const whitelisted_users: string[] = [];
      for (const id of waiting) whitelisted_users.push((await whitelist(id)).user.login);
      return { success: true as const, email: presentWhitelistedEmail(row), whitelisted_users };
    },

    async removeEmail(rawEmail: string) {
      const email = rawEmail.trim().toLowerCase();
      const deleted = await db
        .delete(emailWhitelist)
        .where(eq(emailWhitelist.email, email))
        .returning({ email: emailWhitelist.email });
      if (deleted.length === 0) throw notFound('That email is not on the whitelist');
      return { success: true as const, email };
    },
  };
}

export type UserAdminService = ReturnType<typeof createUserAdminService>;
