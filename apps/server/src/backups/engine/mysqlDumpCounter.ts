import { Transform, type TransformCallback } from 'node:stream';

/** Databases a MySQL or MariaDB server keeps for itself: dumped for grants, never counted. */
export const SYSTEM_SCHEMAS = ['mysql', 'sys', 'performance_schema', 'information_schema'];

const HEAD_LIMIT = 1024;
const [NEWLINE, QUOTE, BACKSLASH, OPEN, CLOSE, SEMICOLON] = [0x0a, 0x27, 0x5c, 0x28, 0x29, 0x3b];

/** `` `we``ird` `` → we`ird */
const unquote = (name: string) => name.slice(1, -1).replace(/``/g, '`');

/**
 * Counts the rows of each table in a mysqldump stream as it passes: every `CREATE TABLE` (so empty tables are
 * in the list too) and each tuple of its extended `INSERT … VALUES (…),(…);` lines, strings and their
 * backslash escapes skipped. The counts are those of the dump's own transaction (--single-transaction).
 */
export class MysqlDumpCounter extends Transform {
  readonly tables: Record<string, number> = {};
  private database = '';
  private head: number[] = [];
  private mode: 'head' | 'insert' | 'skip' = 'head';
  private table = '';
  private inString = false;
  private escaped = false;
  private depth = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.mode === 'insert') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === BACKSLASH) this.escaped = true;
          else if (byte === QUOTE) this.inString = false;
        } else if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN) {
          if (this.depth === 0) this.count(this.table);
          this.depth++;
        } else if (byte === CLOSE) this.depth--;
        // MariaDB puts each tuple on a line of its own: only the `;` after the last one ends the statement.
        else if (byte === SEMICOLON && this.depth === 0) this.mode = 'skip';
        continue;
      }
      if (byte === NEWLINE) {
        if (this.mode === 'head' && this.maybeInsert()) continue;
        if (this.mode === 'head') this.onLine(Buffer.from(this.head).toString('utf8'));
        this.mode = 'head';
        this.head = [];
        continue;
      }
      if (this.mode === 'skip') continue;
      this.head.push(byte);
      if (byte === 0x20 && this.head.length > 20) this.maybeInsert();
      if (this.head.length > HEAD_LIMIT) this.mode = 'skip';
    }
    callback(null, chunk);
  }

  private count(key: string): void {
    if (key) this.tables[key] = (this.tables[key] ?? 0) + 1;
  }

  private key(table: string): string {
    return SYSTEM_SCHEMAS.includes(this.database) || !this.database ? '' : `${this.database}/${table}`;
  }

  /** `INSERT INTO `t` VALUES` seen: the tuples follow (on the same line for MySQL, the next ones for MariaDB). */
  private maybeInsert(): boolean {
    const head = Buffer.from(this.head).toString('utf8');
    const insert = /^INSERT INTO (`(?:[^`]|``)+`) VALUES ?$/.exec(head);
    if (!insert) return false;
    this.table = this.key(unquote(insert[1]!));
    this.mode = 'insert';
    this.inString = false;
    this.escaped = false;
    this.depth = 0;
    this.head = [];
    return true;
  }

  private onLine(line: string): void {
    const use = /^USE (`(?:[^`]|``)+`);$/.exec(line);
    if (use) {
      this.database = unquote(use[1]!);
      return;
    }
    const create = /^CREATE TABLE (`(?:[^`]|``)+`) \($/.exec(line);
    if (create) {
      const key = this.key(unquote(create[1]!));
      if (key) this.tables[key] ??= 0;
    }
  }
}
