import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { DomainError } from '../domain/errors.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export const ADMIN_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** `__Host-` pins the cookie to this origin over HTTPS (production); plain name on http://localhost. */
export const adminCookieName = (production: boolean) =>
  production ? '__Host-slipway_admin' : 'slipway_admin';

export interface AdminSessionData {
  createdAt: number;
  ip: string;
}

export interface AdminAccess {
  /**
   * Checks the password and starts a fresh admin session; returns its id. The route rate-limits the
   * attempts per client (http/rateLimit.ts).
   */
  login(password: string, clientIp: string): Promise<string>;
  isAdmin(sessionId: string | undefined): Promise<boolean>;
  logout(sessionId: string | undefined): Promise<void>;
  /** The raw stored session, so a flush of all sessions can keep the admin who asked for it. */
  sessionData(sessionId: string): Promise<AdminSessionData | undefined>;
  restoreSession(sessionId: string, data: AdminSessionData): Promise<void>;
}

const sessionKey = (id: string) => `admin:${id}`;

/**
 * The admin password is hashed once at boot and only the hash is kept here; a guess is hashed with the
 * same salt and compared in constant time, so neither timing nor memory gives the password away.
 */
export function createAdminAccess(deps: { kv: KeyValueStore; adminPassword: string }): AdminAccess {
  const salt = randomBytes(16);
  const expected = scryptSync(deps.adminPassword, salt, 32);
  const { kv } = deps;

  async function isAdmin(sessionId: string | undefined) {
    if (!sessionId || !SESSION_ID.test(sessionId)) return false;
    return Boolean(await kv.get<AdminSessionData>('sessions', sessionKey(sessionId)));
  }

  return {
    async login(password, clientIp) {
      const actual = await scryptAsync(password, salt, 32);
      if (!timingSafeEqual(actual, expected)) {
        throw new DomainError('unauthenticated', 'Invalid admin password', { data: { success: false } });
      }
      const id = randomBytes(32).toString('base64url');
      const data: AdminSessionData = { createdAt: Date.now(), ip: clientIp };
      await kv.set('sessions', sessionKey(id), data, ADMIN_SESSION_TTL_MS);
      return id;
    },
    isAdmin,
    async logout(sessionId) {
      if (sessionId && SESSION_ID.test(sessionId)) await kv.delete('sessions', sessionKey(sessionId));
    },
    async sessionData(sessionId) {
      if (!SESSION_ID.test(sessionId)) return undefined;
      return kv.get<AdminSessionData>('sessions', sessionKey(sessionId));
    },
    async restoreSession(sessionId, data) {
      const remaining = ADMIN_SESSION_TTL_MS - (Date.now() - data.createdAt);
      if (remaining > 0) await kv.set('sessions', sessionKey(sessionId), data, remaining);
    },
  };
}
