import { posix } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { BackupError } from './backupEngine.js';

/** One member of a tar archive, as its headers (ustar, GNU long names, pax) describe it. */
export interface TarEntry {
  path: string;
  /** ustar type flag: '0' file, '1' hard link, '2' symlink, '5' directory, … */
  type: string;
  size: number;
  linkTarget: string;
}

const BLOCK = 512;

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function octal(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  // GNU base-256 for sizes over 8 GiB: the first byte's high bit set, the rest big-endian.
  if ((field[0]! & 0x80) !== 0) {
    let value = 0;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const digits = text(block, start, length).trim();
  return digits ? Number.parseInt(digits, 8) : 0;
}

function paxRecords(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(offset, space).toString('ascii'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records[record.slice(0, equals)] = record.slice(equals + 1);
    offset += length;
  }
  return records;
}

/**
 * Passes a tar stream through unchanged and calls `onEntry` for each member as its header goes by: the file
 * list and sizes of a backup are read from the same bytes restic stores, without a copy on disk.
 */
export class TarLister extends Transform {
  private header = Buffer.alloc(0);
  /** Bytes of the current member's data (and padding) still to pass. */
  private skip = 0;
  /** A GNU long name or pax header's data being collected, and for what. */
  private collecting: { kind: string; data: Buffer[]; left: number; padding: number } | undefined;
  private longName: string | undefined;
  private longLink: string | undefined;
  private pax: Record<string, string> = {};
  private ended = false;

  constructor(private readonly onEntry: (entry: TarEntry) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.parse(chunk);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback(null, chunk);
  }

  private parse(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length && !this.ended) {
      if (this.collecting) {
        const { collecting } = this;
        const take = Math.min(collecting.left, chunk.length - offset);
        collecting.data.push(chunk.subarray(offset, offset + take));
        collecting.left -= take;
        offset += take;
        if (collecting.left === 0) {
          this.collecting = undefined;
          this.skip = collecting.padding;
          this.collected(collecting.kind, Buffer.concat(collecting.data));
        }
        continue;
      }
      if (this.skip > 0) {
        const take = Math.min(this.skip, chunk.length - offset);
        this.skip -= take;
        offset += take;
        continue;
      }
      const need = BLOCK - this.header.length;
      const take = Math.min(need, chunk.length - offset);
      this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + take)]);
      offset += take;
      if (this.header.length === BLOCK) {
        const block = this.header;
        this.header = Buffer.alloc(0);
        this.onHeader(block);
      }
    }
  }

  private collected(kind: string, data: Buffer): void {
    const value = text(data, 0, data.length);
    if (kind === 'L') this.longName = value;
    else if (kind === 'K') this.longLink = value;
    else if (kind === 'x') this.pax = paxRecords(data);
  }

  private onHeader(block: Buffer): void {
    if (block.every((byte) => byte === 0)) {
      // Two zero blocks end the archive; one is tolerated as the end too (busybox writes two).
      this.ended = true;
      return;
    }
    const size = this.pax.size ? Number(this.pax.size) : octal(block, 124, 12);
    const type = String.fromCharCode(block[156] || 0x30);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'L' || type === 'K' || type === 'x') {
      if (size > 1024 * 1024) throw new BackupError('The archive holds a header larger than 1 MiB');
      this.collecting = { kind: type, data: [], left: size, padding: padded - size };
      if (size === 0) {
        this.collecting = undefined;
        this.skip = padded;
      }
      return;
    }
    if (type === 'g') {
      this.skip = padded;
      return;
    }
    const prefix = block.subarray(257, 263).toString('ascii').startsWith('ustar')
      ? text(block, 345, 155)
      : '';
    const name =
      this.pax.path ?? this.longName ?? (prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100));
    const linkTarget = this.pax.linkpath ?? this.longLink ?? text(block, 157, 100);
    this.longName = undefined;
    this.longLink = undefined;
    this.pax = {};
    // Links and directories carry no data whatever their size field says.
    this.skip = type === '0' || type === '7' ? padded : 0;
    this.onEntry({ path: name, type, size: type === '0' || type === '7' ? size : 0, linkTarget });
  }
}

/** `./a/b/` → `a/b`; the archive's root (`./`) → ''. */
export function memberPath(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * Checks each member of an archive that is about to be written into a volume mounted at `mountPath`: no absolute
 * path, no `..`, no link pointing outside the volume, nothing written through a link, no device or FIFO.
 * Throws a BackupError naming the first offending member.
 */
export function volumeEntryGuard(mountPath: string): (entry: TarEntry) => void {
  const links = new Set<string>();
  const refuse = (entry: TarEntry, why: string) => {
    throw new BackupError(
      `The archive holds a path outside its volume, so nothing was restored: ${JSON.stringify(entry.path)} ${why}`,
    );
  };
  const inside = (relative: string) =>
    relative !== '..' && !relative.startsWith('../') && !posix.isAbsolute(relative);
  return (entry) => {
    if (posix.isAbsolute(entry.path)) refuse(entry, 'is an absolute path');
    if (entry.path.split('/').includes('..')) refuse(entry, 'goes up with ..');
    const path = memberPath(entry.path);
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (links.has(parts.slice(0, i).join('/'))) refuse(entry, 'is written through a link');
    }
    if (!['0', '7', '5', '2', '1'].includes(entry.type))
      refuse(entry, `is of tar type ${entry.type}, not a file`);
    if (entry.type === '1') {
      if (posix.isAbsolute(entry.linkTarget) || !inside(posix.normalize(memberPath(entry.linkTarget)))) {
        refuse(entry, `is a hard link to ${JSON.stringify(entry.linkTarget)}`);
      }
    }
    if (entry.type === '2') {
      const target = posix.isAbsolute(entry.linkTarget)
        ? posix.relative(mountPath, posix.normalize(entry.linkTarget))
        : posix.normalize(posix.join(posix.dirname(path), entry.linkTarget));
      if (!inside(target)) refuse(entry, `links to ${JSON.stringify(entry.linkTarget)}`);
      links.add(path);
    }
  };
}
