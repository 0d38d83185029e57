import { z } from 'zod';

/**
 * cAdvisor v1.3 shapes behind `/api/admin/cadvisor/api/v1.3/*` (the fields Slipway fills and the
 * System Monitoring tab reads). A real cAdvisor sends more, so every object here lets extra fields through.
 */

const number = z.number();

export const cadvisorMachineInfoSchema = z.looseObject({
  /** Sent by cAdvisor 0.40 and later (and by Slipway's own Docker monitor). */
  timestamp: z.string().optional(),
  num_cores: number,
  num_physical_cores: number.optional(),
  num_sockets: number.optional(),
  cpu_frequency_khz: number,
  memory_capacity: number,
  machine_id: z.string(),
  system_uuid: z.string(),
  boot_id: z.string(),
  /** Epoch seconds. */
  boot_time: number.optional(),
  /** Not in cAdvisor's shape: the Docker host's name. */
  hostname: z.string().optional(),
});
export type CadvisorMachineInfo = z.infer<typeof cadvisorMachineInfoSchema>;

const networkCounters = { name: z.string(), rx_bytes: number, tx_bytes: number };

/**
 * One sample. Counters are cumulative (cpu in nanoseconds). cAdvisor leaves out what it does not
 * measure for a container (the network of a container without its own namespace, some memory details).
 */
export const cadvisorContainerStatsSchema = z.looseObject({
  timestamp: z.string(),
  cpu: z.looseObject({
    usage: z.looseObject({
      total: number,
      per_cpu_usage: z.array(number).optional(),
      user: number.optional(),
      system: number.optional(),
    }),
  }),
  memory: z.looseObject({
    usage: number,
    working_set: number,
    rss: number.optional(),
    cache: number.optional(),
    max_usage: number.optional(),
  }),
  network: z
    .looseObject({
      rx_bytes: number,
      tx_bytes: number,
      interfaces: z.array(z.looseObject(networkCounters)),
    })
    .optional(),
});
export type CadvisorContainerStats = z.infer<typeof cadvisorContainerStatsSchema>;

/** The workspace, Compose service and owner of a container, from its labels and the database. */
export const slipwayContainerOwnerSchema = z.strictObject({
  workspace: z.string().nullable(),
  service: z.string().nullable(),
  owner: z.string().nullable(),
});
export type SlipwayContainerOwner = z.infer<typeof slipwayContainerOwnerSchema>;

/** A container the Docker Engine did not answer about (Slipway's own `/containers`, on the root only). */
export const unansweredContainerSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  /** What went unanswered: "The Docker Engine did not answer within 15 s when asked for …". */
  sentence: z.string(),
});
export type UnansweredContainer = z.infer<typeof unansweredContainerSchema>;

export interface CadvisorContainerInfo {
  name: string;
  id?: string | undefined;
  aliases?: string[] | undefined;
  namespace?: string | undefined;
  labels?: Record<string, string> | undefined;
  spec: {
    creation_time?: string | undefined;
    image?: string | undefined;
    has_cpu?: boolean | undefined;
    has_memory?: boolean | undefined;
    has_network?: boolean | undefined;
    memory?: { limit: number } | undefined;
    labels?: Record<string, string> | undefined;
  };
  stats: CadvisorContainerStats[];
  /** Added by Slipway's admin proxy: whose container this is (null for containers Slipway did not start). */
  slipway?: SlipwayContainerOwner | undefined;
  /**
   * cAdvisor lists only names here. Slipway's `/containers` fills each subcontainer in full (spec and
   * stats), so one call gives the System Monitoring tab every container's numbers.
   */
  subcontainers?: (CadvisorContainerInfo | { name: string })[] | undefined;
  /**
   * Added by Slipway's `/containers` on the root: the running containers the engine did not answer about in time,
   * whose cards are missing (the rest are listed without waiting for them).
   */
  unanswered?: UnansweredContainer[] | undefined;
}

const labels = z.record(z.string(), z.string());
export const cadvisorContainerInfoSchema: z.ZodType<CadvisorContainerInfo> = z.looseObject({
  name: z.string(),
  id: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  namespace: z.string().optional(),
  labels: labels.optional(),
  spec: z.looseObject({
    creation_time: z.string().optional(),
    image: z.string().optional(),
    has_cpu: z.boolean().optional(),
    has_memory: z.boolean().optional(),
    has_network: z.boolean().optional(),
    memory: z.looseObject({ limit: number }).optional(),
    labels: labels.optional(),
  }),
  stats: z.array(cadvisorContainerStatsSchema),
  slipway: slipwayContainerOwnerSchema.optional(),
  get subcontainers() {
    return z.array(z.union([cadvisorContainerInfoSchema, z.looseObject({ name: z.string() })])).optional();
  },
  unanswered: z.array(unansweredContainerSchema).optional(),
});
