/**
 * The part of Docker's service spec (Engine API 1.41) Slipway writes, typed. Durations are nanoseconds, as the
 * API takes them.
 */
export interface SwarmMount {
  Type: 'volume' | 'tmpfs';
  Target: string;
  /** Empty for an anonymous volume or a tmpfs. */
  Source: string;
  ReadOnly?: boolean;
  VolumeOptions?: {
    Labels?: Record<string, string>;
    DriverConfig?: { Name?: string; Options?: Record<string, string> };
  };
  TmpfsOptions?: { SizeBytes?: number; Mode?: number };
}

export interface SwarmFileReference {
  /** The secret's or config's id and name (created by createSwarmFile). */
  SecretID?: string;
  SecretName?: string;
  ConfigID?: string;
  ConfigName?: string;
  File: { Name: string; UID: string; GID: string; Mode: number };
}

export interface SwarmHealthCheck {
  Test: string[];
  Interval?: number;
  Timeout?: number;
  Retries?: number;
  StartPeriod?: number;
}

export interface SwarmUpdateConfig {
  Parallelism: number;
  Delay?: number;
  FailureAction: 'pause' | 'continue' | 'rollback';
  /** How long each new task is watched for a failure before the next one is replaced. */
  Monitor: number;
  MaxFailureRatio?: number;
  Order: 'start-first' | 'stop-first';
}

export interface SwarmContainerSpec {
  Image: string;
  Labels?: Record<string, string>;
  Command?: string[];
  Args?: string[];
  Hostname?: string;
  Env?: string[];
  Dir?: string;
  User?: string;
  Groups?: string[];
  TTY?: boolean;
  OpenStdin?: boolean;
  ReadOnly?: boolean;
  Init?: boolean;
  Mounts?: SwarmMount[];
  StopSignal?: string;
  StopGracePeriod?: number;
  HealthCheck?: SwarmHealthCheck;
  Hosts?: string[];
  DNSConfig?: { Nameservers?: string[]; Search?: string[]; Options?: string[] };
  Secrets?: SwarmFileReference[];
  Configs?: SwarmFileReference[];
  CapabilityDrop?: string[];
  Ulimits?: { Name: string; Soft: number; Hard: number }[];
}

export interface SwarmServiceSpec {
  Name: string;
  Labels: Record<string, string>;
  TaskTemplate: {
    ContainerSpec: SwarmContainerSpec;
    Resources?: { Limits?: { NanoCPUs?: number; MemoryBytes?: number; Pids?: number } };
    RestartPolicy: {
      Condition: 'none' | 'on-failure' | 'any';
      Delay?: number;
      MaxAttempts?: number;
      Window?: number;
    };
    Placement: {
      Constraints?: string[];
      Preferences?: { Spread: { SpreadDescriptor: string } }[];
      MaxReplicas?: number;
    };
    Networks: { Target: string; Aliases?: string[] }[];
    LogDriver?: { Name: string; Options?: Record<string, string> };
    ForceUpdate?: number;
  };
  Mode:
    | { Replicated: { Replicas: number } }
    | { Global: Record<string, never> }
    /** A one-shot: runs until it exits 0 (Engine API 1.41). */
    | { ReplicatedJob: { MaxConcurrent: number; TotalCompletions: number } };
  /** Absent for a job: Swarm refuses an update configuration on one. */
  UpdateConfig?: SwarmUpdateConfig;
  RollbackConfig?: SwarmUpdateConfig;
  EndpointSpec: {
    /** Always DNS round robin: these kernels have no IPVS, so no virtual IP and no routing mesh. */
    Mode: 'dnsrr';
    Ports?: { Protocol: 'tcp' | 'udp'; TargetPort: number; PublishedPort: number; PublishMode: 'host' }[];
  };
}

export const SECOND_NS = 1_000_000_000;
