import { randomBytes } from 'node:crypto';
import type { ImpersonationResult } from '@slipway/contract';
import type { Session, SessionManager } from '../auth/sessions.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import { auditLog } from '../infra/db/schema.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { UsersRepository } from '../users/usersRepository.js';

export const IMPERSONATION_TTL_SECONDS = 15 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tokenKey = (token: string) => `impersonation:${token}`;

interface StoredToken {
  userId: string;
  login: string;
  issuedAt: number;
}

/**
 * An admin gets a one-time token that signs a browser in as a user. The token lives in the `tokens`
 * namespace with its time to live, is removed on first use, and both steps are written to the audit log.
 */
export function createImpersonation(deps: {
  db: Db;
  kv: KeyValueStore;
  sessions: SessionManager;
  users: Pick<UsersRepository, 'findFresh'>;
  publicUrl: string;
  ttlSeconds?: number;
}) {
  const ttlSeconds = deps.ttlSeconds ?? IMPERSONATION_TTL_SECONDS;

  async function audit(action: string, target: string, detail: Record<string, unknown>) {
    await deps.db.insert(auditLog).values({ actor: 'admin', action, target, detail });
  }

  return {
    ttlSeconds,

    async issue(userId: string, context: { ip: string }): Promise<ImpersonationResult> {
      const user = UUID.test(userId) ? await deps.users.findFresh(userId) : undefined;
      if (!user) throw notFound('User not found');
      const token = randomBytes(32).toString('base64url');
      const stored: StoredToken = { userId: user.id, login: user.login, issuedAt: Date.now() };
      await deps.kv.set('tokens', tokenKey(token), stored, ttlSeconds * 1000);
      await audit('impersonation.token_issued', user.id, {
        login: user.login,
        ip: context.ip,
        expires_in: ttlSeconds,
      });
      return {
        user: { login: user.login, first_name: user.firstName, last_name: user.lastName },
        impersonation_token: token,
        expires_in: ttlSeconds,
        impersonation_url: `${deps.publicUrl}/api/auth/impersonate?token=${token}`,
      };
    },

    /** Trades a valid token, once, for a user session marked as started by an admin. */
    async redeem(token: string, context: { ip: string }): Promise<Session> {
      const invalid = () =>
        new DomainError(
          'unauthenticated',
          'This impersonation token has expired or was already used. Ask for a new one in the admin panel.',
        );
      if (!TOKEN.test(token)) throw invalid();
      const stored = await deps.kv.get<StoredToken>('tokens', tokenKey(token));
      // Deleting is the claim: of two simultaneous uses, only one removes the key.
      if (!stored || !(await deps.kv.delete('tokens', tokenKey(token)))) throw invalid();
      const user = await deps.users.findFresh(stored.userId);
      if (!user) throw invalid();
      const session = await deps.sessions.create({ userId: user.id, impersonatedBy: 'admin' });
      await audit('impersonation.session_started', user.id, { login: stored.login, ip: context.ip });
      return session;
    },
  };
}

export type Impersonation = ReturnType<typeof createImpersonation>;
