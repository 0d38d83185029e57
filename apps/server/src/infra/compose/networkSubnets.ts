import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import ipaddr from 'ipaddr.js';
import { isObj, type Obj } from './composeMerge.js';
import { workspaceResourceName } from './scopedResources.js';

/**
 * The addresses the bridge networks of workspaces' projects are given. Left to itself, Docker carves each new
 * network a /16 or /20 out of its default address pools, which hold about 30 networks: on an engine that runs
 * many workspaces (the local provider runs every workspace on one engine, each project with its own network,
 * blue/green candidates and previews with theirs) the 31st `up` failed with "all predefined address pools have
 * been fully subnetted". Slipway gives each network a small subnet of its own from this pool instead.
 */
export interface SubnetPool {
  /** The first address of the pool, as a 32-bit number. */
  base: number;
  /** The pool's prefix length (16 in 10.213.0.0/16). */
  prefix: number;
  /** Each network's prefix length (25: 126 addresses, 512 networks in a /16). */
  size: number;
}

export const DEFAULT_NETWORK_POOL = '10.213.0.0/16';
export const DEFAULT_NETWORK_SIZE = 25;

const toNumber = (address: ipaddr.IPv4) => address.octets.reduce((sum, octet) => sum * 256 + octet, 0);
const toAddress = (value: number) =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

type Range = [first: number, last: number];
const overlaps = (a: Range, b: Range) => a[0] <= b[1] && b[0] <= a[1];

/** An IPv4 CIDR as the range [first, last]; undefined for anything else (IPv6, a typo). */
function rangeOf(cidr: string): Range | undefined {
  try {
    const [address, prefix] = ipaddr.parseCIDR(cidr);
    if (address.kind() !== 'ipv4') return undefined;
    const span = 2 ** (32 - prefix);
    const first = Math.floor(toNumber(address as ipaddr.IPv4) / span) * span;
    return [first, first + span - 1];
  } catch {
    return undefined;
  }
}

/** The IPv4 ranges among `cidrs`. */
const rangesOf = (cidrs: string[]): Range[] =>
  cidrs.map(rangeOf).filter((range): range is Range => range !== undefined);

/** Reads WORKSPACE_NETWORK_POOL and WORKSPACE_NETWORK_SIZE; a sentence naming the setting when they are wrong. */
export function parseSubnetPool(cidr: string, size: number): SubnetPool {
  const range = rangeOf(cidr);
  if (!range || !cidr.includes('/')) {
    throw new Error(
      `WORKSPACE_NETWORK_POOL must be an IPv4 range such as ${DEFAULT_NETWORK_POOL}; it is '${cidr}'`,
    );
  }
  const prefix = Number(cidr.slice(cidr.indexOf('/') + 1));
  if (!Number.isInteger(size) || size < prefix || size > 29) {
    throw new Error(
      `WORKSPACE_NETWORK_SIZE must be a prefix length from ${prefix} (the pool's) to 29; it is ${size}`,
    );
  }
  return { base: range[0], prefix, size };
}

export const defaultSubnetPool = () => parseSubnetPool(DEFAULT_NETWORK_POOL, DEFAULT_NETWORK_SIZE);

const poolText = (pool: SubnetPool) => `${toAddress(pool.base)}/${pool.prefix}`;

/** The networks Slipway chose a subnet for in one `up`: their real names and subnets. */
export type SubnetChoices = Map<string, string>;

/** Every IPv4 subnet the engine's networks hold, by network name. */
async function engineSubnets(docker: Docker): Promise<Map<string, string[]>> {
  const held = new Map<string, string[]>();
  for (const network of await docker.listNetworks()) {
    const subnets = (network.IPAM?.Config ?? []).map((config) => config.Subnet).filter(Boolean) as string[];
    held.set(network.Name, subnets);
  }
  return held;
}

/** The networks of a project file that Slipway gives a subnet: bridge networks with no subnet of the author's. */
function networksToPlace(project: Obj): [key: string, network: Obj][] {
  const declared = isObj(project.networks) ? project.networks : {};
  const entries: [string, Obj][] = Object.entries(declared).map(([key, value]) => [
    key,
    isObj(value) ? value : {},
  ]);
  if (!('default' in declared)) entries.push(['default', {}]);
  return entries.filter(([, network]) => {
    if (network.external !== undefined && network.external !== false) return false;
    if (network.driver !== undefined && network.driver !== 'bridge') return false;
    const ipam = isObj(network.ipam) ? network.ipam : undefined;
    if (ipam?.driver !== undefined && ipam.driver !== 'default') return false;
    return !(Array.isArray(ipam?.config) && ipam.config.length > 0);
  });
}

/** The first free subnet, probing from a place the network's name picks (two projects rarely start at one). */
function freeSubnet(pool: SubnetPool, name: string, taken: Range[]): string | undefined {
  const span = 2 ** (32 - pool.size);
  const count = 2 ** (pool.size - pool.prefix);
  const start = createHash('sha256').update(name).digest().readUInt32BE(0) % count;
  for (let step = 0; step < count; step++) {
    const first = pool.base + ((start + step) % count) * span;
    const range: Range = [first, first + span - 1];
    if (!taken.some((other) => overlaps(other, range))) return `${toAddress(first)}/${pool.size}`;
  }
  return undefined;
}

/**
 * The project file with a subnet for each of its bridge networks: the one the network already has on the engine
 * (a redeploy keeps it: Compose refuses a network whose subnet changed), else a free one of the pool that
 * overlaps no network on the engine. Returns the file and the subnets newly chosen (see {@link lostSubnetRace}).
 */
export async function placeNetworks(
  project: Obj,
  projectName: string,
  docker: Docker,
  pool: SubnetPool,
): Promise<{ project: Obj; chosen: SubnetChoices }> {
  const held = await engineSubnets(docker);
  const taken = rangesOf([...held.values()].flat());
  const networks: Obj = { ...(isObj(project.networks) ? project.networks : {}) };
  const chosen: SubnetChoices = new Map();
  for (const [key, network] of networksToPlace(project)) {
    const name = typeof network.name === 'string' ? network.name : workspaceResourceName(projectName, key);
    let subnet = held.get(name)?.find((cidr) => rangeOf(cidr));
    if (!subnet) {
      subnet = freeSubnet(pool, name, taken);
      if (!subnet) {
        throw new Error(
          `No free subnet is left for network '${key}': every /${pool.size} of WORKSPACE_NETWORK_POOL ${poolText(pool)} is in use on this VM (widen the pool or make WORKSPACE_NETWORK_SIZE larger)`,
        );
      }
      chosen.set(name, subnet);
      taken.push(rangeOf(subnet)!);
    }
    const ipam = isObj(network.ipam) ? network.ipam : {};
    networks[key] = { ...network, ipam: { ...ipam, config: [{ subnet }] } };
  }
  return { project: { ...project, networks }, chosen };
}

/**
 * Whether another project took one of the subnets chosen for this `up` in the meantime (two deployments on one
 * engine, from this server or another, chose the same free subnet; the engine refuses the second network).
 */
export async function lostSubnetRace(docker: Docker, chosen: SubnetChoices): Promise<boolean> {
  if (chosen.size === 0) return false;
  const held = await engineSubnets(docker);
  for (const [name, subnet] of chosen) {
    const mine = rangeOf(subnet)!;
    for (const [other, subnets] of held) {
      if (other === name) continue;
      if (rangesOf(subnets).some((range) => overlaps(range, mine))) return true;
    }
  }
  return false;
}
