import type { Duplex } from 'node:stream';
import type { HealthResult } from '../health/healthVerifier.js';
import type { ServiceRole } from '../health/serviceRoles.js';
import type { IngressTarget } from '../infra/ingress/ingress.js';
import type { HostPorts } from './hostPorts.js';
import type { RevisionPlan } from './revisionPlans.js';
import type { VersionView } from './serviceChanges.js';

/**
 * Where a version of a workspace runs: `serving`, the workspace's own copy, which its URLs reach between
 * deployments; `green`, the blue/green copy of a redeploy's changed services, started beside the serving one
 * and verified before any request reaches it.
 */
export type Slot = 'serving' | 'green';

/** A version as an engine runs it: its plan (host ports included) and the workspace's variables. */
export interface EngineVersion {
  plan: RevisionPlan;
  env: { key: string; value: string }[];
}

/** Where a version goes: in place of the serving one, or — blue/green — these services beside it on their own ports. */
export type Placement = { slot: 'serving' } | { slot: 'green'; services: string[]; hostPorts: HostPorts };

/** What one operation of a run gets: where its output goes, when to stop, a directory of the run's own. */
export interface EngineRun {
  log: (line: string) => void;
  signal: AbortSignal;
  workDir: string;
}

/** One running (or stopped) replica of a service, as the engine sees it. */
export interface ReplicaState {
  /** The engine's id of the replica (a container id): a restart keeps it, a replacement does not. */
  id: string;
  service: string;
  /** 1 for a service of one replica; each replica of a replicated service has its own number. */
  number: number;
  running: boolean;
  createdAt: Date;
  /** Each published container port and the host port it is bound to. */
  ports: { containerPort: number; hostPort: number }[];
}

/** How the verifier is asked about a slot: the roles to judge, their host ports, and its deadline. */
export interface VerifyRequest {
  roles: ServiceRole[];
  hostPorts: HostPorts;
  timeoutMs: number;
  /** Only report what failed already (see verifyHealth). */
  failuresOnly?: boolean;
  /** Replicas that ran before this version came up: only their restarts from now on count. */
  preExisting?: ReadonlySet<string>;
  signal?: AbortSignal;
  onProgress?: (line: string) => void;
}

/**
 * What a rollout needs from the engine that runs a workspace's containers on its VM, bound to one workspace.
 * Compose (rollout/compose/) is the first; another engine implements the same and the pipeline does not change.
 * Failures it throws are a deployment's failures (`StepFailure`, in the user's words).
 */
export interface RolloutEngine {
  /** Says the engine is reachable and which it is (`Compose v2`): the build log names it. */
  ready(): Promise<string>;
  /** Builds the images of a version that builds any (output to `onLine` as it comes). */
  build(version: EngineVersion, run: EngineRun, onLine: (line: string) => void): Promise<void>;
  /** Brings a version up where `placement` says; `label` names the work in a failure ("Starting the containers"). */
  up(version: EngineVersion, placement: Placement, run: EngineRun, label: string): Promise<void>;
  /** Why these services of a version cannot start beside the serving one on this engine (undefined: they can). */
  besideRefusal(version: EngineVersion, services: string[]): Promise<string | undefined>;
  /** The replicas running in a slot. */
  replicas(slot: Slot): Promise<ReplicaState[]>;
  /** The health model applied to a slot's replicas; a failed service's logs come with the verdict. */
  verify(slot: Slot, request: VerifyRequest): Promise<HealthResult>;
  /** Removes a slot's version: the green copy's replicas, or everything the workspace's own copy made (data too). */
  remove(slot: Slot): Promise<void>;
  /** Host ports bound on the VM, with the slot of this workspace that binds each (`other`: anyone else). */
  portsInUse(): Promise<Map<number, Slot | 'other'>>;
  /** A TCP connection to a host port of the VM (probes, and telling a port is free). */
  connect(hostPort: number): Promise<Duplex>;
  /** The address the ingress dials for a host port. */
  upstream(hostPort: number): string;
  /**
   * The ingress targets of a slot's published ports on these host ports: per port, where the proxy reaches each
   * of the service's replicas (an engine that places replicas on several nodes answers from where they run).
   */
  targets(slot: Slot, hostPorts: HostPorts, roles: ServiceRole[]): Promise<IngressTarget[]>;
  /** A version as the engine will run it, to compare with another (what changed, what may run beside). */
  view(plan: RevisionPlan): VersionView;
}
