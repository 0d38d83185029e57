import { and, count, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { kvEntries } from '../db/schema.js';
import type { KeyValueStore, KvNamespace } from './keyValueStore.js';

const live = () => or(isNull(kvEntries.expiresAt), gt(kvEntries.expiresAt, sql`now()`));
const expiry = (ttlMs: number | undefined) => (ttlMs === undefined ? null : new Date(Date.now() + ttlMs));

/**
 * `onSweepError` hears of a failed minutely removal of expired entries (reads skip them meanwhile);
 * `onlyThisProcess`: the database is the embedded one, which no other process opens.
 */
export function createDatabaseKeyValueStore(
  db: Db,
  options: { onSweepError: (error: unknown) => void; onlyThisProcess?: boolean },
): KeyValueStore {
  const sweep = setInterval(() => {
    db.delete(kvEntries).where(lte(kvEntries.expiresAt, sql`now()`)).catch(options.onSweepError);
  }, 60_000);
  sweep.unref();

  return {
    kind: 'database',
    onlyThisProcess: options.onlyThisProcess ?? false,
    async get<T>(namespace: KvNamespace, key: string) {
      const [row] = await db
        .select({ value: kvEntries.value })
        .from(kvEntries)
        .where(and(eq(kvEntries.namespace, namespace), eq(kvEntries.key, key), live()));
      return row?.value as T | undefined;
    },
    async set(namespace, key, value, ttlMs) {
      const expiresAt = expiry(ttlMs);
      await db
        .insert(kvEntries)
        .values({ namespace, key, value, expiresAt })
        .onConflictDoUpdate({ target: [kvEntries.namespace, kvEntries.key], set: { value, expiresAt } });
    },
    async delete(namespace, key) {
      const deleted = await db
        .delete(kvEntries)
        .where(and(eq(kvEntries.namespace, namespace), eq(kvEntries.key, key), live()))
        .returning({ key: kvEntries.key });
      return deleted.length > 0;
    },
    async expire(namespace, key, ttlMs) {
      const updated = await db
        .update(kvEntries)
        .set({ expiresAt: expiry(ttlMs) })
        .where(and(eq(kvEntries.namespace, namespace), eq(kvEntries.key, key), live()))
        .returning({ key: kvEntries.key });
      return updated.length > 0;
    },
    async increment(namespace, key, windowMs) {
      // An expired counter restarts at 1 with a new window; a live one counts up.
      const [row] = await db
        .insert(kvEntries)
        .values({ namespace, key, value: 1, expiresAt: expiry(windowMs) })
        .onConflictDoUpdate({
          target: [kvEntries.namespace, kvEntries.key],
          set: {
            value: sql`case when ${kvEntries.expiresAt} is not null and ${kvEntries.expiresAt} <= now() then '1'::jsonb else to_jsonb((${kvEntries.value})::text::bigint + 1) end`,
            expiresAt: sql`case when ${kvEntries.expiresAt} is not null and ${kvEntries.expiresAt} <= now() then excluded.expires_at else ${kvEntries.expiresAt} end`,
          },
        })
        .returning({
          value: kvEntries.value,
          resetInMs: sql<string>`greatest(0, extract(epoch from ${kvEntries.expiresAt} - now()) * 1000)`,
        });
      return { count: Number(row?.value ?? 1), resetInMs: Math.ceil(Number(row?.resetInMs ?? windowMs)) };
    },
    async count(namespace) {
      const [row] = await db
        .select({ n: count() })
        .from(kvEntries)
        .where(and(eq(kvEntries.namespace, namespace), live()));
      return Number(row?.n ?? 0);
    },
    async flush(namespace) {
      const deleted = await db
        .delete(kvEntries)
        .where(eq(kvEntries.namespace, namespace))
        .returning({ key: kvEntries.key });
      return deleted.length;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}
