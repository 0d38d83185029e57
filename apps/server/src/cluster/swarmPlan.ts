import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import type { OverlayNetwork } from '../infra/swarm/swarmNetworks.js';
import type { SwarmServiceSpec } from '../infra/swarm/swarmServiceSpec.js';

/** What the translation needs besides the normalized Compose project. */
export interface SwarmTranslationInput {
  workspaceId: string;
  userId: string;
  /** The project as the compose check returned it (`normalized`): paths absolute, values literal. */
  project: Record<string, unknown>;
  /** The checkout the project was read from (the paths in it are inside). */
  repoDir: string;
  /** The cluster's node ids; a stateful service is pinned to one of them. */
  nodeIds: string[];
  /** The image each active service runs, by digest in the cluster's registry (built ones and published ones). */
  images: Record<string, string>;
  /** Replicas per service, as the replica policy decided them (replicaPolicy.checkReplicas). */
  replicas: Record<string, number>;
  /** Container ports (TCP) each service publishes for the proxy. */
  publishedPorts: Record<string, number[]>;
  /** The workspace's variables, over each service's environment (as on one VM). */
  env?: { key: string; value: string }[];
  limits: { cpusPerService: number; memoryBytesPerService: number };
  /** The node each stateful service's volume already lives on (from the previous deployment). */
  pinned?: Record<string, string>;
  /** Encrypt the overlay networks: only where the nodes' kernels carry IPsec ESP (docs/guide/cluster.md). */
  encrypted: boolean;
  /** Whether a bind mount's source is a file or a directory (the checkout is read; tests may pass their own). */
  pathKind?: (absolutePath: string) => 'file' | 'directory' | 'missing';
}

/** A Swarm secret or config one service mounts, made from a file of the checkout when the plan is applied. */
export interface PlannedFile {
  kind: 'secret' | 'config';
  /** The file whose bytes it holds (absolute, inside the checkout). */
  source: string;
  /** The name prefix; the applied name adds a hash of the content (Swarm's secrets and configs are immutable). */
  prefix: string;
  /** Where it appears in the container: a name under /run/secrets for a secret, an absolute path for a config. */
  target: string;
  uid: string;
  gid: string;
  mode: number;
}

export interface PlannedService {
  /** The Compose service's name. */
  service: string;
  spec: SwarmServiceSpec;
  files: PlannedFile[];
  /** A one-shot (awaited with service_completed_successfully): runs to completion as a Swarm job. */
  oneShot: boolean;
  /** The node a service with a named volume is pinned to. */
  pinnedTo?: string;
}

export interface ServiceWait {
  service: string;
  condition: 'service_started' | 'service_healthy' | 'service_completed_successfully';
}

export interface SwarmPlan {
  networks: OverlayNetwork[];
  services: PlannedService[];
  /** Waves of services: each wave starts once the waits of its services are met by the waves before. */
  order: string[][];
  /** What each service waits for before it starts (depends_on and links). */
  waits: Record<string, ServiceWait[]>;
  /** The node of each stateful service: store it, and pass it back as `pinned` next time. */
  pins: Record<string, string>;
}

export type SwarmTranslation =
  | { kind: 'plan'; plan: SwarmPlan }
  | { kind: 'refused'; violations: PolicyViolation[] };
