import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Db } from '../infra/db/client.js';
import { emailWhitelist, users } from '../infra/db/schema.js';
import type { GithubProfile } from '../infra/github/githubOAuth.js';

export type UserRow = typeof users.$inferSelect;

export type UserListFilter = 'all' | 'waiting-list' | 'whitelisted';

/** Locks the user's row until `tx` ends: work for one user that must not run twice at once takes it first. */
export async function lockUserRow(tx: Db, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/**
 * Every request of a signed-in user reads its row, so rows are kept for a moment: this repository is the only
 * writer of `users` and refreshes the cache on each write, so this process never sees a stale row; another process
 * sharing the database sees a change within USER_CACHE_TTL_MS.
 */
export const USER_CACHE_TTL_MS = 2_000;

export function createUsersRepository(db: Db) {
  const recent = new LRUCache<string, UserRow>({ max: 5_000, ttl: USER_CACHE_TTL_MS });
  const remember = (row: UserRow | undefined) => {
    if (row) recent.set(row.id, row);
    return row;
  };
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const cached = recent.get(id);
      if (cached) return cached;
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return remember(row);
    },

    /** The row as the database holds it now, past the cache (the admin panel shows and changes it). */
    async findFresh(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    /** Newest first: everyone, the whitelisted, or those on the waiting list. */
    async list(filter: UserListFilter): Promise<UserRow[]> {
      const where =
        filter === 'whitelisted'
          ? eq(users.whitelisted, true)
          : filter === 'waiting-list'
            ? and(eq(users.whitelisted, false), eq(users.onWaitingList, true))
            : undefined;
      return db.select().from(users).where(where).orderBy(desc(users.createdAt));
    },

    /** The ids of the users who completed their profile with `email` (lower case) and are not let in yet. */
    async waitingWithEmail(email: string): Promise<string[]> {
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            sql`lower(${users.email}) = ${email}`,
            eq(users.profileCompleted, true),
            eq(users.whitelisted, false),
          ),
        );
      return rows.map((row) => row.id);
    },

    async counts(): Promise<{ total: number; whitelisted: number }> {
      const [all, whitelisted] = await Promise.all([
        db.select({ n: count() }).from(users),
        db.select({ n: count() }).from(users).where(eq(users.whitelisted, true)),
      ]);
      return { total: Number(all[0]?.n ?? 0), whitelisted: Number(whitelisted[0]?.n ?? 0) };
    },

    /** Each given user's login, by id (an id without a user is left out). */
    async loginsByIds(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: users.id, login: users.login })
        .from(users)
        .where(inArray(users.id, ids));
      return new Map(rows.map((row) => [row.id, row.login]));
    },

    async findByLogin(login: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.login, login));
      return row;
    },

    /** Creates the user on first sign-in; later sign-ins refresh what GitHub says but keep what the user entered. */
    async upsertFromGithub(profile: GithubProfile, githubTokenEnc: string | null): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({
          githubId: profile.githubId,
          login: profile.login,
          name: profile.name,
          avatarUrl: profile.avatarUrl,
          email: profile.email,
          firstName: profile.firstName || null,
          lastName: profile.lastName || null,
          githubTokenEnc,
          lastLogin: new Date(),
        })
        .onConflictDoUpdate({
          target: users.githubId,
          set: {
            login: profile.login,
            name: profile.name,
            avatarUrl: profile.avatarUrl,
            email: sql`coalesce(${users.email}, excluded.email)`,
            githubTokenEnc,
            lastLogin: new Date(),
          },
        })
        .returning();
      return remember(row)!;
    },

    /** Local mode's accounts: created once, signed in many times. */
    async upsertLocal(values: {
      login: string;
      name: string;
      firstName: string | null;
      lastName: string | null;
      email: string | null;
      whitelisted: boolean;
      profileCompleted: boolean;
    }): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ ...values, onWaitingList: !values.whitelisted, lastLogin: new Date() })
        .onConflictDoUpdate({ target: users.login, set: { lastLogin: new Date() } })
        .returning();
      return remember(row)!;
    },

    async completeProfile(
      id: string,
      values: { firstName: string; lastName: string; email: string | null; whitelisted: boolean },
    ): Promise<UserRow> {
      const [row] = await db
        .update(users)
        .set({
          firstName: values.firstName,
          lastName: values.lastName,
          email: values.email,
          profileCompleted: true,
          ...(values.whitelisted ? { whitelisted: true, onWaitingList: false } : {}),
        })
        .where(eq(users.id, id))
        .returning();
      return remember(row)!;
    },

    /** Lets a user in (whitelisted) or puts them back on the waiting list; undefined when there is no such user. */
    async setAccess(id: string, whitelisted: boolean): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ whitelisted, onWaitingList: !whitelisted })
        .where(eq(users.id, id))
        .returning();
      return remember(row);
    },

    async isEmailWhitelisted(email: string): Promise<boolean> {
      const [row] = await db
        .select({ email: emailWhitelist.email })
        .from(emailWhitelist)
        .where(eq(emailWhitelist.email, email.trim().toLowerCase()));
      return Boolean(row);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
