import { PassThrough, type Readable } from 'node:stream';
import type Docker from 'dockerode';

export interface DockerLogLine {
  ts: Date;
  source: 'stdout' | 'stderr';
  line: string;
}

/** `2024-05-01T10:00:00.123456789Z message` (the `timestamps` option) → time and text. */
export function splitTimestamp(raw: string): { ts: Date; text: string } {
  const space = raw.indexOf(' ');
  const stamp = space > 0 ? raw.slice(0, space) : raw;
  const ts = new Date(stamp);
  if (Number.isNaN(ts.getTime())) return { ts: new Date(), text: raw };
  return { ts, text: space > 0 ? raw.slice(space + 1) : '' };
}

/** Cuts a byte stream into lines, carrying a partial last line over to the next chunk. */
function lineSplitter(onLine: (line: string) => void) {
  let carry = '';
  return {
    push(chunk: Buffer | string) {
      const text = carry + chunk.toString('utf8');
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) onLine(line.replace(/\r$/, ''));
    },
    end() {
      if (carry) onLine(carry);
      carry = '';
    },
  };
}

/**
 * Follows one container's output: stdout and stderr separated with the engine's own demultiplexer
 * (a TTY container has one raw stream), each line with the engine's timestamp.
 * Returns a function that stops following.
 */
export function followContainerLogs(
  docker: Docker,
  stream: Readable,
  tty: boolean,
  onLine: (line: DockerLogLine) => void,
  onEnd: () => void,
): () => void {
  const emit = (source: 'stdout' | 'stderr') =>
    lineSplitter((raw) => {
      const { ts, text } = splitTimestamp(raw);
      onLine({ ts, source, line: text });
    });
  const out = emit('stdout');
  const err = emit('stderr');
  if (tty) {
    stream.on('data', (chunk: Buffer) => out.push(chunk));
  } else {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.on('data', (chunk: Buffer) => out.push(chunk));
    stderr.on('data', (chunk: Buffer) => err.push(chunk));
    docker.modem.demuxStream(stream, stdout, stderr);
  }
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    out.end();
    err.end();
    onEnd();
  };
  stream.on('end', finish);
  stream.on('close', finish);
  stream.on('error', finish);
  return () => {
    stream.destroy();
    finish();
  };
}
