/**
 * The yardstick for Slipway's backups: what an operator types by hand on the same machine, `docker exec db
 * pg_dumpall | restic backup --stdin` and `restic dump | docker exec -i db psql`, into a restic repository of
 * its own. The password reaches restic through its environment, as Slipway's does.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

type Command = [string, ...string[]];

/** Runs `producer | consumer` (argument arrays, no shell); resolves with the consumer's output once both exit 0. */
export function pipeline(
  producer: Command | Readable,
  consumer: Command,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const [consumerCommand, ...consumerArgs] = consumer;
    const sink = spawn(consumerCommand, consumerArgs, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let source: Readable;
    let producerDone: Promise<void> = Promise.resolve();
    if (producer instanceof Readable) source = producer;
    else {
      const [command, ...args] = producer;
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => {
        errors = (errors + chunk.toString()).slice(-2000);
      });
      producerDone = new Promise((done, fail) =>
        child.on('close', (code) =>
          code === 0 ? done() : fail(new Error(`${command} exited ${code}: ${errors}`)),
        ),
      );
      source = child.stdout;
    }
    source.pipe(sink.stdin);
    let output = '';
    let errors = '';
    sink.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    sink.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    sink.on('close', (code) => {
      if (code !== 0) reject(new Error(`${consumerCommand} exited ${code}: ${errors}`));
      else producerDone.then(() => resolve(output), reject);
    });
  });
}

/** A fresh restic repository in a temporary directory, initialised (not timed). */
export async function bareRepository() {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-restic-'));
  const env = {
    ...process.env,
    RESTIC_REPOSITORY: path.join(dir, 'repo'),
    RESTIC_PASSWORD: randomBytes(24).toString('hex'),
  };
  await pipeline(Readable.from([]), ['restic', 'init', '--quiet'], env);
  return {
    /** `docker exec {container} pg_dumpall | restic backup --stdin`: its time, and restic's data_added. */
    async backUp(container: string) {
      const started = performance.now();
      const output = await pipeline(
        ['docker', 'exec', container, 'pg_dumpall', '-U', 'postgres'],
        ['restic', 'backup', '--stdin', '--stdin-filename', 'dump.sql', '--json'],
        env,
      );
      const ms = performance.now() - started;
      const summary = output
        .split('\n')
        .filter((line) => line.includes('"message_type":"summary"'))
        .map((line) => JSON.parse(line) as { data_added: number; total_bytes_processed: number })[0];
      return { ms, addedBytes: summary?.data_added ?? 0, dumpBytes: summary?.total_bytes_processed ?? 0 };
    },
    /**
     * The cluster emptied as Slipway empties it (every database dropped but the templates, `postgres` made
     * again), then `restic dump latest dump.sql | docker exec -i {container} psql`: its time.
     */
    async restore(container: string) {
      const psql: Command = [
        'docker',
        'exec',
        '-i',
        container,
        'psql',
        '-X',
        '-q',
        '-U',
        'postgres',
        '-d',
        'template1',
        '-f',
        '-',
      ];
      const started = performance.now();
      await pipeline(
        Readable.from([
          "SELECT format('DROP DATABASE %I WITH (FORCE)', datname) FROM pg_database WHERE datname NOT IN ('template0', 'template1') \\gexec\n",
          'CREATE DATABASE postgres;\n',
        ]),
        psql,
        env,
      );
      await pipeline(['restic', 'dump', 'latest', '/dump.sql'], psql, env);
      return performance.now() - started;
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
