import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
const mb = (n) => (n / 1048576).toFixed(0);
const extra = process.argv.slice(3);
class TunedFS extends NodeFS {
  async init(pg, opts) {
    const r = await super.init(pg, opts);
    r.emscriptenOpts.arguments = [...r.emscriptenOpts.arguments, ...extra];
    return r;
  }
}
const pg = new PGlite({ fs: new TunedFS(process.argv[2]) });
await pg.waitReady;
for (const q of ['shared_buffers','work_mem','temp_buffers','wal_buffers']) console.log(q, (await pg.query(`show ${q}`)).rows[0]);
await pg.query('create table if not exists t(x int)'); await pg.query('insert into t select generate_series(1,1000)');
const m = process.memoryUsage(); console.log('rss', mb(m.rss), 'ext', mb(m.external), 'heap', pg.Module?.HEAP8?.length/1048576);
