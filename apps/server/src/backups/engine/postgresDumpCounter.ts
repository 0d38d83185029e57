import { Transform, type TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;
const HEAD_LIMIT = 4096;

/** `\connect app` or `\connect -reuse-previous=on "dbname='we''ird'"` → the database's name. */
export function connectTarget(line: string): string {
  const quoted = /dbname='((?:[^']|'')*)'/.exec(line);
  if (quoted) return quoted[1]!.replace(/''/g, "'");
  const name = line.slice('\\connect '.length).trim();
  return name.startsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
}

/** The key a table's row count is kept under: `{database}/{schema}.{table}` as pg_dump quotes them. */
export const tableKey = (database: string, qualifiedTable: string) => `${database}/${qualifiedTable}`;

/**
 * Counts the rows of each table in a pg_dumpall stream as it passes (each `COPY … FROM stdin;` block until
 * `\.`): the fingerprint is what the dump holds, taken in the dump's own snapshot, so writes the app makes
 * meanwhile cannot make a good backup look wrong.
 */
export class PostgresDumpCounter extends Transform {
  readonly tables: Record<string, number> = {};
  private database = 'postgres';
  private copying: string | undefined;
  /** Rows of the block being copied, kept in a number until its end (the hot path touches no object). */
  private rows = 0;
  /** The head of the line that began in an earlier chunk, and that line's length so far. */
  private head: Buffer[] = [];
  private headLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        if (this.headLength < HEAD_LIMIT) this.head.push(chunk.subarray(start, start + HEAD_LIMIT));
        this.headLength += chunk.length - start;
        break;
      }
      if (this.headLength > 0) {
        const length = this.headLength + end - start;
        const head = Buffer.concat([...this.head, chunk.subarray(start, Math.min(end, start + HEAD_LIMIT))]);
        this.onLine(head.subarray(0, HEAD_LIMIT).toString('utf8'), length);
        this.head = [];
        this.headLength = 0;
      } else if (this.copying !== undefined) {
        // The hot path: a row is a line; only `\.` ends the block.
        if (end - start === 2 && chunk[start] === 0x5c && chunk[start + 1] === 0x2e) this.onLine('\\.', 2);
        else this.rows++;
      } else {
        this.onLine(chunk.subarray(start, Math.min(end, start + HEAD_LIMIT)).toString('utf8'), end - start);
      }
      start = end + 1;
    }
    callback(null, chunk);
  }

  private onLine(line: string, length: number): void {
    if (this.copying !== undefined) {
      if (length === 2 && line === '\\.') {
        this.tables[this.copying] = (this.tables[this.copying] ?? 0) + this.rows;
        this.copying = undefined;
      } else this.rows++;
      return;
    }
    if (line.startsWith('\\connect ')) {
      this.database = connectTarget(line);
      return;
    }
    const copy = /^COPY (.+?) (?:\(.*\) )?FROM stdin;$/.exec(line);
    if (copy) {
      this.copying = tableKey(this.database, copy[1]!);
      this.tables[this.copying] ??= 0;
      this.rows = 0;
    }
  }
}
