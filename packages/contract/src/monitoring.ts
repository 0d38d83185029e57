import { z } from 'zod';
import { workspaceNameParam } from './pathParams.js';

export const monitoringParamsSchema = z.object({ workspace: workspaceNameParam });

export const systemHealthStatusSchema = z.strictObject({
  system_health_deployed: z.boolean(),
  message: z.string(),
});
export type SystemHealthStatus = z.infer<typeof systemHealthStatusSchema>;
/** POST /api/monitoring/system-health-deploy/{workspace}. */
export const systemHealthDeployResultSchema = systemHealthStatusSchema.extend({ success: z.literal(true) });

const bytes = z.number().min(0);

export const networkInterfaceInfoSchema = z.strictObject({
  name: z.string(),
  rx_bytes: bytes,
  tx_bytes: bytes,
});
export type NetworkInterfaceInfo = z.infer<typeof networkInterfaceInfoSchema>;

export const systemInfoSchema = z.strictObject({
  cpu_cores: z.number().int().min(0),
  cpu_frequency_mhz: z.number().min(0),
  memory_total: bytes,
  network_interfaces: z.array(networkInterfaceInfoSchema),
  cloud_provider: z.enum(['local', 'azure', 'ssh']),
  hostname: z.string(),
});
export type SystemInfo = z.infer<typeof systemInfoSchema>;
export const systemInfoResponseSchema = z.strictObject({ system_info: systemInfoSchema });

const percent = z.number().min(0);
export const vmHealthSampleSchema = z.strictObject({
  ts: z.string(),
  /** Percent, one decimal. */
  cpu: percent,
  /** Percent of memory in use, one decimal. */
  memory: percent,
});
export type VmHealthSample = z.infer<typeof vmHealthSampleSchema>;

export const vmHealthSchema = z.strictObject({
  cpu_usage_percent: percent,
  memory_used: bytes,
  memory_total: bytes,
  memory_usage_percent: percent,
  network_rx_bytes: bytes,
  network_tx_bytes: bytes,
  history: z.array(vmHealthSampleSchema),
});
export type VmHealth = z.infer<typeof vmHealthSchema>;
export const vmHealthResponseSchema = z.strictObject({ vm_health: vmHealthSchema });

export const containerHealthSchema = z.strictObject({
  name: z.string(),
  image: z.string(),
  cpu_percent: percent,
  memory_usage: bytes,
  memory_limit: bytes,
  network_rx: bytes,
  network_tx: bytes,
});
export type ContainerHealth = z.infer<typeof containerHealthSchema>;

export const systemHealthContainersSchema = z.strictObject({
  containers: z.record(z.string(), containerHealthSchema),
  message: z.string().optional(),
});
export type SystemHealthContainers = z.infer<typeof systemHealthContainersSchema>;
