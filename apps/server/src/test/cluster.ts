import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDocker } from '../infra/docker/dockerode.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../../../scripts/cluster/cluster.sh');

/** One engine of the test cluster: a "VM" in a network namespace of this machine. */
export interface TestNode extends NodeEngine {
  index: number;
  socket: string;
}

/**
 * A cluster of Docker Engines on this machine (scripts/cluster/cluster.sh): each node a network namespace with an
 * engine of its own on a bridge of its own. Names are random per cluster, so test runs sharing the machine never
 * meet. Always `destroy()` it (afterAll).
 */
export interface TestCluster {
  id: string;
  dir: string;
  nodes: TestNode[];
  /** Milliseconds `create` took (namespaces, bridge and every engine answering). */
  createdInMs: number;
  /** Whether this kernel carries an encrypted overlay (IPsec ESP with AES-GCM). */
  espSupported: boolean;
  /** Copies images from this machine's engine to every node. */
  load(...images: string[]): Promise<void>;
  /** Makes every engine on the machine trust a CA for a registry at a node's address. */
  trust(registryHost: string, caCert: string): Promise<void>;
  /** A lost machine: every process of the node killed at once. */
  kill(node: TestNode): Promise<void>;
  stop(node: TestNode): Promise<void>;
  start(node: TestNode): Promise<void>;
  /** The node's cable pulled, and put back. */
  cut(node: TestNode): Promise<void>;
  restore(node: TestNode): Promise<void>;
  destroy(): Promise<void>;
}

async function script(args: string[], timeoutMs = 180_000): Promise<string> {
  const { stdout } = await run('bash', [SCRIPT, ...args], { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 });
  return stdout;
}

/** Whether this machine can run the test cluster: root, iproute2 and nsenter. */
export function clusterSupported(): boolean {
  return process.getuid?.() === 0;
}

export async function createTestCluster(nodeCount: number): Promise<TestCluster> {
  const id = `c${randomBytes(3).toString('hex').slice(0, 5)}`;
  const dir = mkdtempSync(path.join(tmpdir(), `slipway-cluster-${id}-`));
  const started = Date.now();
  let output: string;
  try {
    output = await script(['create', id, String(nodeCount), dir]);
  } catch (error) {
    await script(['destroy', dir]);
    throw error;
  }
  const createdInMs = Date.now() - started;
  const nodes: TestNode[] = output
    .trim()
    .split('\n')
    .map((line) => {
      const [, index, address, socket] = line.split(' ');
      return {
        index: Number(index),
        name: `node${index}`,
        address: address!,
        socket: socket!,
        docker: createDocker({ socketPath: socket! }),
      };
    });
  const espSupported = (await script(['esp', dir])).trim() === 'yes';
  const nodeCommand = (verb: string) => (node: TestNode) =>
    script([verb, dir, String(node.index)]).then(() => {});
  return {
    id,
    dir,
    nodes,
    createdInMs,
    espSupported,
    load: (...images) => script(['load', dir, ...images]).then(() => {}),
    trust: async (registryHost, caCert) => {
      const file = path.join(dir, 'registry-ca.crt');
      writeFileSync(file, caCert);
      await script(['trust', dir, registryHost, file]);
    },
    kill: nodeCommand('kill'),
    stop: nodeCommand('stop'),
    start: nodeCommand('start'),
    cut: nodeCommand('cut'),
    restore: nodeCommand('restore'),
    destroy: () => script(['destroy', dir]).then(() => {}),
  };
}
