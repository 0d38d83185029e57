import net from 'node:net';
import { optionalString } from './envValues.js';

/**
 * The settings that give a workspace more than one node (config.ts reads them with the rest; `.env.example`
 * documents them). Node 1 is always the VM a one-node workspace runs on; these list where nodes 2, 3, … go.
 */
export const clusterEnvShape = {
  /** Local provider: more Docker Engines, `unix:///path/to/node.sock@10.250.1.12`, comma-separated. */
  CLUSTER_ENGINES: optionalString,
  /** Local provider: the address the other engines reach this machine's engine at (node 1's). */
  CLUSTER_LOCAL_ADDRESS: optionalString,
  /** SSH provider: more servers, `host` or `host:port`, comma-separated (same user and key as SSH_HOST). */
  SSH_CLUSTER_HOSTS: optionalString,
};

type ClusterEnv = { [K in keyof typeof clusterEnvShape]?: string | undefined };

/** One more engine of the local provider: its socket, and its address on the network the nodes share. */
export interface ClusterEngine {
  socketPath: string;
  address: string;
}

export interface ClusterSettings {
  /** Local provider: the engines of nodes 2, 3, … in order. */
  engines: ClusterEngine[];
  /** Local provider: node 1's address in a cluster (its engine is DOCKER_SOCKET's). */
  localAddress: string | undefined;
  /** SSH provider: the servers of nodes 2, 3, … in order. */
  sshHosts: { host: string; port: number }[];
}

const ENGINE = /^unix:\/\/(\/[^@,\s]+)@([^@,\s]+)$/;
const HOST = /^([A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\])(?::([0-9]{1,5}))?$/;

const entries = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** The cluster settings, or a sentence naming the variable that is wrong. */
export function clusterSettingsFrom(env: ClusterEnv, sshPort: number): ClusterSettings | string {
  const engines: ClusterEngine[] = [];
  for (const entry of entries(env.CLUSTER_ENGINES)) {
    const match = ENGINE.exec(entry);
    if (!match || net.isIP(match[2]!) === 0) {
      return `CLUSTER_ENGINES: each engine is written unix:///path/to/engine.sock@ADDRESS (an IP address), e.g. unix:///run/node2.sock@10.250.1.12; "${entry}" is not`;
    }
    engines.push({ socketPath: match[1]!, address: match[2]! });
  }
  const localAddress = env.CLUSTER_LOCAL_ADDRESS;
  if (localAddress && net.isIP(localAddress) === 0) {
    return `CLUSTER_LOCAL_ADDRESS: an IP address the other engines reach this machine at, e.g. 10.250.1.1; "${localAddress}" is not`;
  }
  if (engines.length > 0 && !localAddress) {
    return 'CLUSTER_LOCAL_ADDRESS: is required with CLUSTER_ENGINES (the address the other engines reach this machine at: node 1 of every workspace on several nodes)';
  }
  const sshHosts: ClusterSettings['sshHosts'] = [];
  for (const entry of entries(env.SSH_CLUSTER_HOSTS)) {
    const match = HOST.exec(entry);
    const port = match?.[2] ? Number(match[2]) : sshPort;
    if (!match || port < 1 || port > 65535) {
      return `SSH_CLUSTER_HOSTS: each server is written host or host:port, e.g. 10.0.0.12 or 10.0.0.13:2222; "${entry}" is not`;
    }
    sshHosts.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return { engines, localAddress, sshHosts };
}
