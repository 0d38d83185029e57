/**
 * Byte sizes and percentages as every screen shows them (spec: "Byte units B, KB, MB, GB with 1 decimal; admin
 * monitoring uses units of 1024 and rounds percentages to 1 decimal"): steps of 1024, GB the largest unit, one
 * decimal, a dash for a missing or impossible value.
 */
const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** A percentage rounded to one decimal (0 for an impossible value). */
export function roundPercent(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 10) / 10 : 0;
}

/** A percentage with one decimal, or a dash when there is none. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${roundPercent(value).toFixed(1)}%`;
}

/** Memory bar colour: red above 80%, yellow above 60%, else green. */
export type UsageTone = 'red' | 'yellow' | 'green';
export function memoryTone(percent: number): UsageTone {
  if (percent > 80) return 'red';
  if (percent > 60) return 'yellow';
  return 'green';
}
