import type Dockerode from 'dockerode';

/** Runs a command in a container and returns its exit code and output (stdout and stderr, as Docker frames them). */
export async function execIn(
  docker: Dockerode,
  containerId: string,
  cmd: string[],
): Promise<{ exitCode: number; output: string }> {
  const exec = await docker
    .getContainer(containerId)
    .exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const info = await exec.inspect();
  // Frames: 8-byte header (stream, 0, 0, 0, size) then the bytes.
  const all = Buffer.concat(chunks);
  let output = '';
  for (let at = 0; at + 8 <= all.length; ) {
    const size = all.readUInt32BE(at + 4);
    output += all.subarray(at + 8, at + 8 + size).toString();
    at += 8 + size;
  }
  return { exitCode: info.ExitCode ?? -1, output };
}

/** GET over plain HTTP with a bound: the text, or the error's message prefixed with `error:`. */
export async function httpText(url: string, ms = 5000): Promise<string> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(ms) });
    return await response.text();
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}
