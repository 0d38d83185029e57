export interface SystemHealthStatus {
  system_health_deployed: boolean;
  message: string;
}

export interface NetworkInterfaceInfo {
  name: string;
  rx_bytes: number;
  tx_bytes: number;
}

export interface SystemInfo {
  cpu_cores: number;
  cpu_frequency_mhz: number;
  memory_total: number;
  network_interfaces: NetworkInterfaceInfo[];
  cloud_provider: 'local' | 'azure' | 'ssh';
  hostname: string;
}

export interface VmHealthSample {
  ts: string;
  /** Percent, one decimal. */
  cpu: number;
  /** Percent of memory in use, one decimal. */
  memory: number;
}

export interface VmHealth {
  cpu_usage_percent: number;
  memory_used: number;
  memory_total: number;
  memory_usage_percent: number;
  network_rx_bytes: number;
  network_tx_bytes: number;
  history: VmHealthSample[];
}

export interface ContainerHealth {
  name: string;
  image: string;
  cpu_percent: number;
  memory_usage: number;
  memory_limit: number;
  network_rx: number;
  network_tx: number;
}

export interface SystemHealthContainers {
  containers: Record<string, ContainerHealth>;
  message?: string;
}
