import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The payload of one log chunk (table log_chunks): the lines of one flush of one workspace, kind, service
 * and container, in write order. Layout, before raw deflate: per line a source byte (0 stdout, 1 stderr),
 * the time in milliseconds as a zigzag varint delta from the previous line (the first from 0), the text's
 * UTF-8 length as a varint, then the text. One version byte precedes the deflated records.
 */
export interface ChunkLine {
  ts: Date;
  source: 'stdout' | 'stderr';
  line: string;
}

const VERSION = 1;

export class LogChunkFormatError extends Error {
  constructor(detail: string) {
    super(`corrupt log chunk payload: ${detail}`);
    this.name = 'LogChunkFormatError';
  }
}

function pushVarint(out: number[], value: number) {
  // Arithmetic, not bit operations: millisecond times exceed 32 bits.
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);
const unzigzag = (value: number) => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);

export function encodeLogChunk(lines: readonly ChunkLine[]): Buffer {
  const parts: Buffer[] = [];
  const header: number[] = [];
  let previous = 0;
  for (const entry of lines) {
    const ms = entry.ts.getTime();
    if (!Number.isSafeInteger(ms)) throw new Error(`log line has an invalid time: ${entry.ts}`);
    const text = Buffer.from(entry.line, 'utf8');
    header.length = 0;
    header.push(entry.source === 'stderr' ? 1 : 0);
    pushVarint(header, zigzag(ms - previous));
    pushVarint(header, text.length);
    parts.push(Buffer.from(header), text);
    previous = ms;
  }
  return Buffer.concat([Buffer.from([VERSION]), deflateRawSync(Buffer.concat(parts))]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeLogChunk(payload: Uint8Array, expectedLines?: number): ChunkLine[] {
  if (payload.length === 0) throw new LogChunkFormatError('empty');
  if (payload[0] !== VERSION) throw new LogChunkFormatError(`unknown version ${payload[0]}`);
  let records: Buffer;
  try {
    records = inflateRawSync(payload.subarray(1));
  } catch (error) {
    throw new LogChunkFormatError(`cannot inflate (${(error as Error).message})`);
  }
  let offset = 0;
  const readVarint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (offset >= records.length) throw new LogChunkFormatError(`truncated number at byte ${offset}`);
      const byte = records[offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new LogChunkFormatError(`number too long at byte ${offset}`);
    }
  };
  const lines: ChunkLine[] = [];
  let previous = 0;
  while (offset < records.length) {
    const source = records[offset++];
    if (source !== 0 && source !== 1)
      throw new LogChunkFormatError(`bad source ${source} at byte ${offset - 1}`);
    previous += unzigzag(readVarint());
    const length = readVarint();
    if (offset + length > records.length) throw new LogChunkFormatError(`truncated line at byte ${offset}`);
    let line: string;
    try {
      line = utf8.decode(records.subarray(offset, offset + length));
    } catch {
      throw new LogChunkFormatError(`invalid UTF-8 at byte ${offset}`);
    }
    offset += length;
    lines.push({ ts: new Date(previous), source: source === 1 ? 'stderr' : 'stdout', line });
  }
  if (expectedLines !== undefined && lines.length !== expectedLines)
    throw new LogChunkFormatError(`${lines.length} lines where ${expectedLines} were stored`);
  return lines;
}

/** A chunk stays small enough that a bounded read decodes little beyond the lines it returns (and below LINE_ID_STRIDE). */
const MAX_CHUNK_LINES = 4096;
const MAX_CHUNK_BYTES = 1024 * 1024;

const textBytes = (lines: readonly ChunkLine[]) =>
  lines.reduce((sum, entry) => sum + Buffer.byteLength(entry.line), 0);

/** A flush's lines cut into chunks of bounded size, in order. */
export function splitIntoChunks<L extends ChunkLine>(lines: readonly L[]): L[][] {
  const chunks: L[][] = [];
  let current: L[] = [];
  let bytes = 0;
  for (const entry of lines) {
    const size = Buffer.byteLength(entry.line);
    if (current.length >= MAX_CHUNK_LINES || (current.length > 0 && bytes + size > MAX_CHUNK_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The columns of a chunk row holding `lines`: time range, counts and payload. */
export function chunkValues(lines: readonly ChunkLine[]) {
  let first = lines[0]!.ts;
  let last = first;
  for (const { ts } of lines) {
    if (ts < first) first = ts;
    if (ts > last) last = ts;
  }
  return {
    firstTs: first,
    lastTs: last,
    lineCount: lines.length,
    byteCount: textBytes(lines),
    payload: encodeLogChunk(lines),
  };
}
