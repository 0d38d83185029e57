import { SwarmCallError } from './swarmCall.js';

type Message = { error?: string; errorDetail?: { message?: string }; aux?: { ID?: string; Digest?: string } };

/**
 * Reads the JSON lines of a build, push or pull until the engine closes the stream, within `ms` (the stream is
 * destroyed then). Throws the engine's own error line; returns the `aux` records (image id, pushed digest).
 */
export async function followEngineStream(
  what: string,
  stream: NodeJS.ReadableStream & { destroy?: () => void },
  ms: number,
): Promise<{ ID?: string; Digest?: string }[]> {
  const aux: { ID?: string; Digest?: string }[] = [];
  const timer = setTimeout(() => stream.destroy?.(), ms);
  let rest = '';
  let failure: string | undefined;
  const take = (line: string) => {
    if (!line.trim()) return;
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return;
    }
    if (message.error || message.errorDetail) failure ??= message.errorDetail?.message ?? message.error;
    if (message.aux) aux.push(message.aux);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      rest += chunk.toString();
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      lines.forEach(take);
    }
  } catch (error) {
    throw new SwarmCallError(what, error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(timer);
  }
  take(rest);
  if (failure) throw new SwarmCallError(what, failure);
  return aux;
}
