import type { Logger } from 'pino';
import type { Db } from '../infra/db/client.js';
import type { PubSub, Unsubscribe } from '../infra/pubsub/pubSub.js';
import { type CustomDomainsRepository, createCustomDomainsRepository } from './customDomainsRepository.js';

const CHANNEL = 'custom-domains:servable-changed';
/** A change missed on the pub/sub channel (a Redis reconnect) still counts within this. */
const MAX_AGE_MS = 5_000;

/**
 * The names the permission endpoint says yes to, held in memory: Caddy asks once per TLS handshake for a name
 * it holds no certificate for, so a flood of random names must not each cost a database query (bench:
 * custom-domains). The set is loaded whole (verified names only, a few per workspace) and dropped on every
 * change that can alter it — at once in this replica, through pub/sub in the others — and is never older than
 * MAX_AGE_MS. A load that a change overtook is not kept: a removed name is never answered from a set read
 * before its removal.
 */
export function createServableNames(deps: {
  load: () => Promise<Set<string>>;
  pubsub: PubSub;
  logger: Logger;
  now?: () => number;
}) {
  const now = deps.now ?? (() => Date.now());
  let snapshot: { names: Set<string>; at: number } | undefined;
  let loading: { generation: number; names: Promise<Set<string>> } | undefined;
  let generation = 0;
  let unsubscribe: Unsubscribe | undefined;

  const drop = () => {
    generation++;
    snapshot = undefined;
  };

  async function current(): Promise<Set<string>> {
    if (snapshot && now() - snapshot.at < MAX_AGE_MS) return snapshot.names;
    if (!loading || loading.generation !== generation) {
      const started = { generation, at: now() };
      const names = deps.load();
      loading = { generation, names };
      void names
        .then((loaded) => {
          if (generation === started.generation) snapshot = { names: loaded, at: started.at };
        })
        .catch(() => undefined)
        .finally(() => {
          if (loading?.names === names) loading = undefined;
        });
    }
    return loading.names;
  }

  return {
    async has(host: string): Promise<boolean> {
      return (await current()).has(host);
    },
    /** A claim changed here: this replica forgets the set now, the others when the message reaches them. */
    changed(): void {
      drop();
      deps.pubsub
        .publish(CHANNEL, { at: now() })
        .catch((error) => deps.logger.warn({ err: error }, 'announcing a custom-domain change failed'));
    },
    async start() {
      unsubscribe ??= await deps.pubsub.subscribe(CHANNEL, drop);
    },
    async stop() {
      await unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}

export type ServableNames = ReturnType<typeof createServableNames>;

/** The claims' repository and the servable names it keeps fresh: every write that may change them drops the set. */
export function createCustomDomainStore(deps: { db: Db; pubsub: PubSub; logger: Logger }): {
  repository: CustomDomainsRepository;
  servableNames: ServableNames;
} {
  const servableNames: ServableNames = createServableNames({
    load: () => repository.servableNames(),
    pubsub: deps.pubsub,
    logger: deps.logger,
  });
  const repository = createCustomDomainsRepository(deps.db, { onServableChange: servableNames.changed });
  return { repository, servableNames };
}
