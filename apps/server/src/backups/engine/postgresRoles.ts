import { Transform } from 'node:stream';

/** pg_dumpall's `CREATE ROLE name;` (names are quoted by its fmtId when they are not plain lower case). */
const CREATE_ROLE = /^CREATE ROLE ([a-z_][a-z0-9_$]*|"(?:[^"]|"")+");$/;
const TAG = '$slipway_role$';
/** A roles section longer than this on one line is not pg_dumpall's: passed on untouched. */
const LINE_LIMIT = 1024 * 1024;

/** `CREATE ROLE name;` as a statement that creates the role only when it does not exist yet. */
export function createRoleIfMissing(line: string): string {
  const match = CREATE_ROLE.exec(line);
  if (!match || line.includes(TAG)) return line;
  const identifier = match[1]!;
  const name = identifier.startsWith('"') ? identifier.slice(1, -1).replace(/""/g, '"') : identifier;
  const literal = `'${name.replace(/'/g, "''")}'`;
  return `DO ${TAG} BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = ${literal}) THEN CREATE ROLE ${identifier}; END IF; END ${TAG};`;
}

/**
 * A whole-cluster dump on its way into psql, with its roles section's `CREATE ROLE name;` lines made conditional:
 * the roles exist in the server a dump is loaded into (its superuser at least), and each `ERROR: role … already
 * exists` would land in the database's log and on the dashboard. `ALTER ROLE` lines pass as they are, so
 * passwords and attributes are restored. Everything from the first `\connect` on (the databases and their rows)
 * passes through untouched, unread.
 */
export function existingRolesTolerated(): Transform {
  let pending: Buffer = Buffer.alloc(0);
  let rolesOver = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (rolesOver) return callback(null, chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      for (let end = pending.indexOf(10, start); end !== -1; end = pending.indexOf(10, start)) {
        const line = pending.subarray(start, end).toString('utf8');
        start = end + 1;
        if (line.startsWith('\\connect ')) {
          rolesOver = true;
          this.push(`${line}\n`);
          break;
        }
        this.push(`${createRoleIfMissing(line)}\n`);
      }
      pending = pending.subarray(start);
      if (rolesOver || pending.length > LINE_LIMIT) {
        rolesOver = true;
        if (pending.length) this.push(pending);
        pending = Buffer.alloc(0);
      }
      callback();
    },
    flush(callback) {
      callback(null, pending.length ? pending : undefined);
    },
  });
}
