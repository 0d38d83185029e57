import type { NodeConnection, VmProvider, VmRow } from '../vm-providers/vmProvider.js';

/** A connection unused this long is closed (an SSH tunnel holds a socket and a session on the server). */
const IDLE_MS = 60_000;

interface Held {
  connection: Promise<NodeConnection>;
  usedAt: number;
}

/**
 * One open connection per node VM, reused by every check of its state: for the SSH and Azure providers a node's
 * engine is an SSH tunnel, and opening one every few seconds per node would cost a handshake each time. A
 * connection whose engine stopped answering is dropped (closed) and opened anew on the next ask; the VM's row
 * is part of the key, so a node that moved (its address or socket changed) gets a new one.
 */
export function createNodeConnections(deps: { provider: Pick<VmProvider, 'nodeEngine'>; idleMs?: number }) {
  const held = new Map<string, Held>();
  const idleMs = deps.idleMs ?? IDLE_MS;
  const keyOf = (vm: VmRow) => JSON.stringify([vm.id, vm.privateIp, vm.providerData]);

  async function close(key: string) {
    const entry = held.get(key);
    if (!entry) return;
    held.delete(key);
    // A connection that never opened has nothing to close; one that fails to close is gone either way.
    await entry.connection.then((connection) => connection.close()).catch(() => {});
  }

  async function closeIdle(now: number) {
    await Promise.all(
      [...held].filter(([, entry]) => now - entry.usedAt > idleMs).map(([key]) => close(key)),
    );
  }

  return {
    /** The node's engine, connected (or connecting) once and shared. */
    async get(vm: VmRow): Promise<NodeConnection> {
      const now = Date.now();
      await closeIdle(now);
      const key = keyOf(vm);
      let entry = held.get(key);
      if (!entry) {
        entry = { connection: deps.provider.nodeEngine(vm), usedAt: now };
        held.set(key, entry);
        // A failed connect is forgotten at once: the next ask tries again.
        entry.connection.catch(() => {
          if (held.get(key) === entry) held.delete(key);
        });
      }
      entry.usedAt = now;
      return entry.connection;
    },

    /** Its engine stopped answering: the next ask connects anew. */
    drop: (vm: VmRow) => close(keyOf(vm)),

    async closeAll() {
      await Promise.all([...held.keys()].map(close));
    },
  };
}

export type NodeConnections = ReturnType<typeof createNodeConnections>;
