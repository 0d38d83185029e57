import { describe, expect, it } from 'vitest';
import { formatBytes, formatPercent, memoryTone, roundPercent } from './units';

describe('formatBytes', () => {
  it.each([
    [0, '0.0 B'],
    [512, '512.0 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [5 * 1024 * 1024, '5.0 MB'],
    [25_276_063_744, '23.5 GB'],
    [1024 ** 4, '1024.0 GB'],
    // a dash for missing or bad values
    [undefined, '—'],
    [Number.NaN, '—'],
    [-1, '—'],
  ])('shows %s bytes as %j (B, KB, MB, GB in steps of 1024, one decimal)', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
});

describe('percentages and colours', () => {
  it('rounds to one decimal, with a dash for none', () => {
    expect(roundPercent(12.345)).toBe(12.3);
    expect(roundPercent(99.96)).toBe(100);
    expect(formatPercent(7)).toBe('7.0%');
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(null)).toBe('—');
  });
  it.each([
    [80.1, 'red'],
    [80, 'yellow'],
    [60.1, 'yellow'],
    [60, 'green'],
    [0, 'green'],
  ])('colours memory at %s%% %s (red above 80, yellow above 60, else green)', (percent, tone) => {
    expect(memoryTone(percent)).toBe(tone);
  });
});
