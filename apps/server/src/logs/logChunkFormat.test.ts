import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  type ChunkLine,
  chunkValues,
  decodeLogChunk,
  encodeLogChunk,
  LogChunkFormatError,
  splitIntoChunks,
} from './logChunkFormat.js';

describe('log chunk format', () => {
  it('round-trips lines with their times, sources, unicode and empty lines, in write order', () => {
    const base = Date.parse('2026-11-25T18:00:00.123Z');
    const lines: ChunkLine[] = [
      { ts: new Date(base), source: 'stdout', line: 'server listening on :3000' },
      { ts: new Date(base + 5), source: 'stderr', line: '' },
      // Out of time order within a flush (two writers): a negative delta.
      { ts: new Date(base - 250), source: 'stderr', line: 'späte Zeile — 日本語 🚀' },
      { ts: new Date(base - 250), source: 'stdout', line: 'same millisecond\twith a tab' },
      { ts: new Date(0), source: 'stdout', line: 'the epoch' },
      { ts: new Date(base + 86_400_000 * 365), source: 'stdout', line: 'x'.repeat(16 * 1024) },
    ];
    const decoded = decodeLogChunk(encodeLogChunk(lines), lines.length);
    expect(decoded).toEqual(lines);
    expect(decoded[2]!.ts.toISOString()).toBe('2026-11-25T17:59:59.873Z');
    expect(decodeLogChunk(encodeLogChunk([]))).toEqual([]);
  });

  it('stores repetitive log text in a fraction of its size', () => {
    const lines = Array.from({ length: 500 }, (_, i) => ({
      ts: new Date(1_700_000_000_000 + i * 37),
      source: 'stdout' as const,
      line: `GET /api/items/${i % 977}?page=${i % 13} 200 ${i % 90} ms`,
    }));
    const text = lines.reduce((sum, entry) => sum + Buffer.byteLength(entry.line), 0);
    expect(encodeLogChunk(lines).length).toBeLessThan(text / 3);
  });

  it('cuts a large flush into chunks of at most 4096 lines and 1 MiB of text, in order', () => {
    const lines = (count: number, text: string) =>
      Array.from({ length: count }, (_, i) => ({
        ts: new Date(i),
        source: 'stdout' as const,
        line: `${i} ${text}`,
      }));
    const many = lines(5000, 'short');
    const byCount = splitIntoChunks(many);
    expect(byCount.map((chunk) => chunk.length)).toEqual([4096, 904]);
    expect(byCount.flat()).toEqual(many);
    const wide = splitIntoChunks(lines(100, 'x'.repeat(16 * 1024)));
    expect(wide.map((chunk) => chunk.length)).toEqual([63, 37]);
    const values = chunkValues([...many.slice(10, 12)].reverse());
    expect(values).toMatchObject({
      firstTs: new Date(10),
      lastTs: new Date(11),
      lineCount: 2,
      byteCount: 16,
    });
  });

  it('refuses a corrupt payload with an error that says so', () => {
    const good = encodeLogChunk([{ ts: new Date(1000), source: 'stdout', line: 'hello' }]);
    const corrupt = (payload: Uint8Array) => () => decodeLogChunk(payload);
    expect(corrupt(Buffer.alloc(0))).toThrow(LogChunkFormatError);
    expect(corrupt(Buffer.from([9, ...good.subarray(1)]))).toThrow(
      'corrupt log chunk payload: unknown version 9',
    );
    expect(corrupt(Buffer.from([1, 0xff, 0xff, 0x00]))).toThrow(/corrupt log chunk payload: cannot inflate/);
    // Valid deflate, records cut short: the line says 5 bytes and has 2.
    const cut = Buffer.concat([Buffer.from([1]), deflateRawSync(Buffer.from([0, 2, 5, 104, 105]))]);
    expect(corrupt(cut)).toThrow('corrupt log chunk payload: truncated line at byte 3');
    const badUtf8 = Buffer.concat([Buffer.from([1]), deflateRawSync(Buffer.from([0, 2, 1, 0xff]))]);
    expect(corrupt(badUtf8)).toThrow(/invalid UTF-8/);
    expect(() => decodeLogChunk(good, 2)).toThrow('corrupt log chunk payload: 1 lines where 2 were stored');
  });
});
