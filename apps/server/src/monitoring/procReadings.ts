/** Parsers for the host's /proc files as the `system` container reads them. Pure, so they test on samples. */

export interface CpuTimes {
  idle: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat: idle (idle + iowait) and total jiffies. */
export function parseCpuTimes(stat: string): CpuTimes {
  const line = stat.split('\n').find((candidate) => /^cpu\s/.test(candidate));
  if (!line) throw new Error('no cpu line in /proc/stat');
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already counted in user).
  const fields = values.slice(0, 8).map((value) => (Number.isFinite(value) ? value : 0));
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { idle, total };
}

/** Busy share between two samples, in percent with one decimal. */
export function cpuPercentBetween(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) return 0;
  const busy = total - (after.idle - before.idle);
  return round1(Math.min(100, Math.max(0, (busy / total) * 100)));
}

export interface MemoryReading {
  total: number;
  available: number;
  used: number;
  percent: number;
}

/** MemTotal and MemAvailable (kB in the file) in bytes; used = total - available, as `free` counts it. */
export function parseMeminfo(meminfo: string): MemoryReading {
  const kb = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(meminfo);
    return match ? Number(match[1]) * 1024 : undefined;
  };
  const total = kb('MemTotal') ?? 0;
  const available = kb('MemAvailable') ?? (kb('MemFree') ?? 0) + (kb('Cached') ?? 0) + (kb('Buffers') ?? 0);
  const used = Math.max(0, total - available);
  return { total, available, used, percent: total > 0 ? round1((used / total) * 100) : 0 };
}

export interface InterfaceCounters {
  name: string;
  rx_bytes: number;
  tx_bytes: number;
}

export function parseNetDev(netDev: string): InterfaceCounters[] {
  const interfaces: InterfaceCounters[] = [];
  for (const line of netDev.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const values = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    interfaces.push({ name, rx_bytes: values[0] ?? 0, tx_bytes: values[8] ?? 0 });
  }
  return interfaces;
}

/** The machine's own traffic: loopback and the per-container virtual interfaces would count twice. */
export function isPhysicalInterface(name: string): boolean {
  return !/^(lo|veth|docker|br-|virbr|cni|flannel|cali|tun|tap)/.test(name);
}

export interface CpuInfo {
  cores: number;
  frequencyMhz: number;
}

export function parseCpuinfo(cpuinfo: string): CpuInfo {
  const cores = (cpuinfo.match(/^processor\s*:/gm) ?? []).length;
  const mhz = /^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo);
  const bogo = /^BogoMIPS\s*:\s*([\d.]+)/im.exec(cpuinfo);
  return {
    cores,
    frequencyMhz: mhz ? Math.round(Number(mhz[1])) : bogo ? Math.round(Number(bogo[1])) : 0,
  };
}

export const round1 = (value: number) => Math.round(value * 10) / 10;
