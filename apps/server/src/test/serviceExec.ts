import { LABELS } from '../infra/docker/conventions.js';
import { containersOf, docker } from './deployments.js';

/** Runs a command in a service's running container of a workspace; answers its output, or throws with it. */
export async function execIn(workspaceId: string, service: string, cmd: string[]): Promise<string> {
  const containers = await containersOf(workspaceId);
  const container = containers.find(
    (c) => c.Labels[LABELS.composeService] === service && c.State === 'running',
  );
  if (!container) throw new Error(`${service} is not running`);
  const exec = await docker
    .getContainer(container.Id)
    .exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({});
  const chunks: Buffer[] = [];
  const sink = { write: (chunk: Buffer) => chunks.push(chunk) };
  docker.modem.demuxStream(stream, sink as never, sink as never);
  await new Promise((resolve) => stream.on('end', resolve));
  const output = Buffer.concat(chunks).toString('utf8');
  const { ExitCode } = await exec.inspect();
  if (ExitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${ExitCode}: ${output}`);
  return output;
}
