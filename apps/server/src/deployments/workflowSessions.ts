import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { UserRow } from '../users/usersRepository.js';

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const sessionKey = (userId: string, sessionId: string) => `session-state:${userId}:${sessionId}`;

/** The web app's saved state of a deployment session (its wizard's answers), per user, for a day. */
export function createWorkflowSessions(kv: KeyValueStore) {
  return {
    async get(user: UserRow, sessionId: string) {
      const stateData = await kv.get<Record<string, unknown>>('workflows', sessionKey(user.id, sessionId));
      return stateData === undefined
        ? { exists: false as const, stateData: null }
        : { exists: true as const, stateData };
    },
    async save(user: UserRow, sessionId: string, stateData: Record<string, unknown>) {
      await kv.set('workflows', sessionKey(user.id, sessionId), stateData, SESSION_TTL_MS);
      return { success: true as const, sessionId };
    },
    async remove(user: UserRow, sessionId: string) {
      return {
        success: true as const,
        deleted: await kv.delete('workflows', sessionKey(user.id, sessionId)),
      };
    },
    async extend(user: UserRow, sessionId: string) {
      return {
        extended: await kv.expire('workflows', sessionKey(user.id, sessionId), SESSION_TTL_MS),
      };
    },
  };
}
