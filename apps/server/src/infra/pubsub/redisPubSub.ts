import type { Redis } from 'ioredis';
import { REDIS_PREFIX } from '../kv/redisKeys.js';
import type { PubSub } from './pubSub.js';

/** One subscriber connection per process, however many channels and listeners. */
export function createRedisPubSub(publisher: Redis): PubSub {
  const subscriber = publisher.duplicate();
  const listeners = new Map<string, Set<(message: unknown) => void>>();
  const channelName = (channel: string) => `${REDIS_PREFIX}:pubsub:${channel}`;

  subscriber.on('message', (fullChannel: string, raw: string) => {
    const handlers = listeners.get(fullChannel);
    if (!handlers) return;
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    for (const handler of handlers) handler(message);
  });

  return {
    async publish(channel, message) {
      await publisher.publish(channelName(channel), JSON.stringify(message));
    },
    async subscribe(channel, onMessage) {
      const fullChannel = channelName(channel);
      let handlers = listeners.get(fullChannel);
      if (!handlers) {
        handlers = new Set();
        listeners.set(fullChannel, handlers);
        await subscriber.subscribe(fullChannel);
      }
      handlers.add(onMessage);
      return async () => {
        const current = listeners.get(fullChannel);
        if (!current) return;
        current.delete(onMessage);
        if (current.size === 0) {
          listeners.delete(fullChannel);
          await subscriber.unsubscribe(fullChannel);
        }
      };
    },
    async close() {
      listeners.clear();
      subscriber.disconnect();
    },
  };
}
