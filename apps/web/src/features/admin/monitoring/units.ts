/** Admin monitoring units (spec §9): powers of 1024, one decimal; percentages rounded to one decimal. */
const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

export function roundPercent(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 10) / 10 : 0;
}

export function formatPercent(value: number): string {
  return `${roundPercent(value).toFixed(1)}%`;
}

/** Memory bar colour: red above 80%, yellow above 60%, else green. */
export type UsageTone = 'red' | 'yellow' | 'green';
export function memoryTone(percent: number): UsageTone {
  if (percent > 80) return 'red';
  if (percent > 60) return 'yellow';
  return 'green';
}
