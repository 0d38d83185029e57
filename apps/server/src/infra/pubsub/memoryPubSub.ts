import { EventEmitter } from 'node:events';
import type { PubSub } from './pubSub.js';

export function createMemoryPubSub(): PubSub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      // A copy, so a subscriber cannot see a later mutation by the publisher (Redis could not either).
      emitter.emit(channel, structuredClone(message));
    },
    async subscribe(channel, onMessage) {
      emitter.on(channel, onMessage);
      return async () => {
        emitter.off(channel, onMessage);
      };
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
