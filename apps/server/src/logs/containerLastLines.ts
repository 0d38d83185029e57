import type Docker from 'dockerode';
import { type DockerLogLine, splitTimestamp } from './dockerLogLines.js';

/** A finished (not followed) log answer: frames of an 8-byte header (stream, 0, 0, 0, length) and a payload. */
function demultiplex(raw: Buffer, tty: boolean): { source: 'stdout' | 'stderr'; text: string }[] {
  if (tty) return [{ source: 'stdout', text: raw.toString('utf8') }];
  const parts: { source: 'stdout' | 'stderr'; text: string }[] = [];
  let offset = 0;
  while (offset + 8 <= raw.length) {
    const stream = raw.readUInt8(offset);
    const length = raw.readUInt32BE(offset + 4);
    const payload = raw.subarray(offset + 8, offset + 8 + length).toString('utf8');
    parts.push({ source: stream === 2 ? 'stderr' : 'stdout', text: payload });
    offset += 8 + length;
  }
  return parts;
}

/**
 * The last `tail` lines a container printed, read from the engine itself: the log collector may not
 * have stored them yet when a crash alert goes out.
 */
export async function containerLastLines(
  docker: Docker,
  containerId: string,
  options: { tail: number; tty: boolean },
): Promise<DockerLogLine[]> {
  const raw = (await docker.getContainer(containerId).logs({
    stdout: true,
    stderr: true,
    timestamps: true,
    tail: options.tail,
    follow: false,
  })) as unknown as Buffer;
  const lines: DockerLogLine[] = [];
  for (const part of demultiplex(raw, options.tty)) {
    for (const text of part.text.split('\n')) {
      if (!text) continue;
      const { ts, text: line } = splitTimestamp(text.replace(/\r$/, ''));
      lines.push({ ts, source: part.source, line });
    }
  }
  return lines.sort((a, b) => a.ts.getTime() - b.ts.getTime()).slice(-options.tail);
}
