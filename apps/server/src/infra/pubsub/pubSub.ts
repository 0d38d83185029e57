/**
 * Live fan-out of workflow status and log lines. With REDIS_URL set every replica sees every message;
 * without it, one process is all there is. Both pass `pubSub.contract.ts`.
 */
export type Unsubscribe = () => Promise<void>;

export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, onMessage: (message: unknown) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}
