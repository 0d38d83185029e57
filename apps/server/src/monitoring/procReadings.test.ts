import { describe, expect, it } from 'vitest';
import { containerHealth } from './containerStats.js';
import { cpuPercentBetween, parseCpuinfo, parseCpuTimes, parseMeminfo, parseNetDev } from './procReadings.js';

describe('host readings', () => {
  it('computes CPU use between two /proc/stat samples', () => {
    const before = parseCpuTimes('cpu  100 0 100 800 0 0 0 0 0 0\ncpu0 50 0 50 400 0 0 0 0 0 0\n');
    const after = parseCpuTimes('cpu  200 0 150 850 50 0 0 0 0 0\n');
    // 250 jiffies passed, 100 of them idle or iowait.
    expect(cpuPercentBetween(before, after)).toBe(60);
    expect(cpuPercentBetween(after, after)).toBe(0);
  });

  it('reads memory as `free` does and network counters per interface', () => {
    const memory = parseMeminfo(
      'MemTotal:       1000 kB\nMemFree:         100 kB\nMemAvailable:    250 kB\n',
    );
    expect(memory).toEqual({ total: 1_024_000, available: 256_000, used: 768_000, percent: 75 });
    const net = parseNetDev(
      'Inter-|   Receive\n face |bytes packets\n    lo:  10 1 0 0 0 0 0 0 20 2 0 0 0 0 0 0\n  eth0: 1000 5 0 0 0 0 0 0 2000 6 0 0 0 0 0 0\n',
    );
    expect(net).toEqual([
      { name: 'lo', rx_bytes: 10, tx_bytes: 20 },
      { name: 'eth0', rx_bytes: 1000, tx_bytes: 2000 },
    ]);
    expect(parseCpuinfo('processor\t: 0\ncpu MHz\t\t: 2445.404\nprocessor\t: 1\n')).toEqual({
      cores: 2,
      frequencyMhz: 2445,
    });
  });

  it('computes container numbers the way `docker stats` does', () => {
    const health = containerHealth('web', 'busybox:1.36', {
      cpu_stats: { cpu_usage: { total_usage: 3_000 }, system_cpu_usage: 20_000, online_cpus: 2 },
      precpu_stats: { cpu_usage: { total_usage: 1_000 }, system_cpu_usage: 10_000 },
      memory_stats: { usage: 50_000, limit: 1_000_000, stats: { inactive_file: 10_000 } },
      networks: { eth0: { rx_bytes: 5, tx_bytes: 7 }, eth1: { rx_bytes: 1, tx_bytes: 1 } },
    });
    expect(health).toEqual({
      name: 'web',
      image: 'busybox:1.36',
      cpu_percent: 40,
      memory_usage: 40_000,
      memory_limit: 1_000_000,
      network_rx: 6,
      network_tx: 8,
    });
  });
});
