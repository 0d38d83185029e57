import { describe, expect, it } from 'vitest';
import { formatBytes, formatPercent, memoryTone, roundPercent } from './units';

describe('formatBytes', () => {
  it('uses units of 1024 with one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1024)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(25_276_063_744)).toBe('23.5 GB');
  });
  it('shows nothing odd for missing or negative values', () => {
    expect(formatBytes(undefined)).toBe('0 B');
    expect(formatBytes(Number.NaN)).toBe('0 B');
    expect(formatBytes(-5)).toBe('0 B');
  });
});

describe('percentages and colours', () => {
  it('rounds to one decimal', () => {
    expect(roundPercent(12.345)).toBe(12.3);
    expect(roundPercent(99.96)).toBe(100);
    expect(formatPercent(7)).toBe('7.0%');
  });
  it('colours memory red above 80, yellow above 60, else green', () => {
    expect(memoryTone(80.1)).toBe('red');
    expect(memoryTone(80)).toBe('yellow');
    expect(memoryTone(60.1)).toBe('yellow');
    expect(memoryTone(60)).toBe('green');
    expect(memoryTone(0)).toBe('green');
  });
});
