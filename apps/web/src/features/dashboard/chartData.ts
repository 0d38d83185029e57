import type { VmHealthSample } from '@slipway/contract';

export interface ChartPoint {
  label: string;
  time: number;
  cpu: number;
  memory: number;
}

const HOUR_MS = 60 * 60 * 1000;

/** The samples of the last hour, oldest first, labelled HH:MM. */
export function lastHourSamples(history: VmHealthSample[], now: number): ChartPoint[] {
  return history
    .map((sample) => ({ sample, time: new Date(sample.ts).getTime() }))
    .filter(({ time }) => Number.isFinite(time) && time >= now - HOUR_MS && time <= now + 60_000)
    .sort((a, b) => a.time - b.time)
    .map(({ sample, time }) => ({
      label: new Date(time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false }),
      time,
      cpu: sample.cpu,
      memory: sample.memory,
    }));
}
