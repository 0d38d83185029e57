import { Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { dumpedCounts } from './mongoParts.js';
import { MysqlDumpCounter } from './mysqlDumpCounter.js';
import { PostgresDumpCounter } from './postgresDumpCounter.js';

/** Feeds `text` in chunks of every size from 1 byte, so that no line boundary is special. */
async function countIn<T extends Transform & { tables: Record<string, number> }>(
  make: () => T,
  text: string,
) {
  const results = [];
  for (const size of [1, 2, 3, 7, 64, 100_000]) {
    const bytes = Buffer.from(text);
    const chunks = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    const counter = make();
    await pipeline(
      Readable.from(chunks),
      counter,
      new Writable({ write: (_chunk, _encoding, done) => done() }),
    );
    results.push(counter.tables);
  }
  expect(new Set(results.map((tables) => JSON.stringify(tables))).size).toBe(1);
  return results[0]!;
}

describe('counting rows in a dump as it streams', () => {
  it('pg_dumpall: each COPY block per database, rows with escaped newlines and backslashes', async () => {
    const dump = [
      '\\connect template1',
      '\\connect postgres',
      'COPY public.empty (id) FROM stdin;',
      '\\.',
      "\\connect -reuse-previous=on \"dbname='we''ird db'\"",
      'COPY public."Odd Name" (a, b) FROM stdin;',
      '1\tone\\nline',
      '2\t\\\\.',
      '3\t\\.x',
      '\\.',
      '\\connect shop',
      'COPY public.items (id) FROM stdin;',
      ...Array.from({ length: 50 }, (_, i) => String(i)),
      '\\.',
      "INSERT INTO x VALUES ('COPY public.fake (id) FROM stdin;');",
      '',
    ].join('\n');
    expect(await countIn(() => new PostgresDumpCounter(), dump)).toEqual({
      'postgres/public.empty': 0,
      'we\'ird db/public."Odd Name"': 3,
      'shop/public.items': 50,
    });
  });

  it('mysqldump: MySQL and MariaDB layouts, strings holding parentheses, quotes and semicolons', async () => {
    const dump = [
      'USE `mysql`;',
      'CREATE TABLE `user` (',
      "INSERT INTO `user` VALUES ('root','x');",
      'USE `shop`;',
      'CREATE TABLE `orders` (',
      '  `id` int(11) NOT NULL',
      ') ENGINE=InnoDB;',
      "INSERT INTO `orders` VALUES (1,'a (b), c'),(2,'it\\'s; (x)\\\\'),(3,NULL);",
      'INSERT INTO `orders` VALUES',
      "(4,'line\\nbreak'),",
      "(5,')(');",
      'CREATE TABLE `empty ``one` (',
      ') ENGINE=InnoDB;',
      '',
    ].join('\n');
    expect(await countIn(() => new MysqlDumpCounter(), dump)).toEqual({
      'shop/orders': 5,
      'shop/empty `one': 0,
    });
  });

  it("mongodump: its own log's count of each collection it wrote, system databases left out", () => {
    const { tables, onStderr } = dumpedCounts();
    onStderr('2026-11-27T18:00:00.000+0000\twriting shop.items to archive on stdout\n');
    onStderr('2026-11-27T18:00:00.100+0000\tdone dumping shop.it');
    onStderr(
      'ems (2500 documents)\n2026-11-27T18:00:00.101+0000\tdone dumping admin.system.users (1 document)\n',
    );
    onStderr('2026-11-27T18:00:00.200+0000\tdone dumping shop.empty (0 documents)\n');
    expect(tables).toEqual({ 'shop/items': 2500, 'shop/empty': 0 });
  });
});
