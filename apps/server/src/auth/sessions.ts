import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';

export interface SessionData {
  userId: string;
  createdAt: number;
  /** Set when an admin's impersonation token started this session. */
  impersonatedBy?: string;
}

export interface Session {
  id: string;
  data: SessionData;
}

const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/**
 * Sessions never change once created, so every request need not read the store: a session read is kept for this
 * long. Signing out in this process forgets it at once; another process sharing the store (Redis, PostgreSQL) sees
 * the sign-out within this time.
 */
export const SESSION_CACHE_TTL_MS = 2_000;

export interface SessionManager {
  create(data: Omit<SessionData, 'createdAt'>, ttlMs?: number): Promise<Session>;
  get(id: string): Promise<Session | undefined>;
  destroy(id: string): Promise<void>;
  /** Forgets the session reads kept in memory, after the store itself was flushed. */
  forgetCached(): void;
  /** The anti-forgery token for a session: derived, so it needs no storage and dies with the session. */
  xsrfTokenFor(sessionId: string): string;
}

export function createSessionManager(kv: KeyValueStore, secret: string): SessionManager {
  const recent = new LRUCache<string, SessionData>({ max: 10_000, ttl: SESSION_CACHE_TTL_MS });
  return {
    async create(data, ttlMs = SESSION_TTL_MS) {
      // Always a fresh, unguessable id: a session is never carried over from before sign-in.
      const id = randomBytes(32).toString('base64url');
      const session = { id, data: { ...data, createdAt: Date.now() } };
      await kv.set('sessions', `user:${id}`, session.data, ttlMs);
      recent.set(id, session.data, { ttl: Math.min(ttlMs, SESSION_CACHE_TTL_MS) });
      return session;
    },
    async get(id) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
      const data = recent.get(id) ?? (await kv.get<SessionData>('sessions', `user:${id}`));
      if (data) recent.set(id, data, { noUpdateTTL: true });
      return data ? { id, data } : undefined;
    },
    async destroy(id) {
      recent.delete(id);
      await kv.delete('sessions', `user:${id}`);
    },
    forgetCached() {
      recent.clear();
    },
    xsrfTokenFor(sessionId) {
      return createHmac('sha256', secret).update(`xsrf:${sessionId}`).digest('base64url');
    },
  };
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
