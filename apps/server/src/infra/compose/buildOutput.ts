import { StringDecoder } from 'node:string_decoder';

/** The longest line handed on: a step that prints without ending its line is cut into lines this long. */
export const MAX_LINE_CHARS = 16 * 1024;

export class ImageBuildError extends Error {}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * A line as pieces of at most `maxChars` whose concatenation is the line: never cut inside a surrogate pair
 * (each half would become U+FFFD once written as UTF-8). The last piece is what is left; a short line is itself.
 */
export function cutIntoPieces(line: string, maxChars = MAX_LINE_CHARS): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const at = maxChars > 1 && isHighSurrogate(rest.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  pieces.push(rest);
  return pieces;
}

/**
 * Text in, lines out, each at most `maxChars` long. A line longer than that is cut into pieces whose
 * concatenation is the line, byte for byte: never inside a surrogate pair (each half would become U+FFFD
 * once written as UTF-8), a piece's `\r` is kept (a progress bar's, not a line end), and a piece of spaces
 * is handed on like any other. Only a whole line loses its CRLF `\r` and is skipped when it is blank.
 */
export function createLineCutter(onLine: (line: string) => void, maxChars = MAX_LINE_CHARS) {
  /** The line being printed, not ended yet. */
  let text = '';
  /** Part of the current line was already handed on: what is left of it is never skipped. */
  let cutBefore = false;

  const cutWhileLonger = (line: string): string => {
    const pieces = cutIntoPieces(line, maxChars);
    const rest = pieces.pop()!;
    for (const piece of pieces) onLine(piece);
    if (pieces.length > 0) cutBefore = true;
    return rest;
  };

  const endLine = (line: string) => {
    const rest = cutWhileLonger(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (cutBefore ? rest !== '' : rest.trim() !== '') onLine(rest);
    cutBefore = false;
  };

  return {
    push(chunk: string) {
      const lines = (text + chunk).split('\n');
      text = lines.pop() ?? '';
      for (const line of lines) endLine(line);
      // Cut what is printed so far, but hold a trailing `\r` back: it may be the first half of a CRLF.
      text = text.endsWith('\r') ? `${cutWhileLonger(text.slice(0, -1))}\r` : cutWhileLonger(text);
    },
    end() {
      if (text !== '') endLine(text);
      text = '';
    },
  };
}

type BuildMessage = {
  stream?: unknown;
  error?: unknown;
  status?: unknown;
  id?: unknown;
  progressDetail?: unknown;
};

/**
 * Hands each line of a build's output (`stream` text split at newlines; pull progress without its
 * progress bars) to `onLine`; the build's error, when it ends with one, is thrown. The engine's chunks end
 * anywhere, inside a JSON message or inside a character: both are put back together before reading.
 */
export async function followBuild(
  output: AsyncIterable<Buffer | string>,
  onLine: (line: string) => void,
  maxChars = MAX_LINE_CHARS,
) {
  const decoder = new StringDecoder('utf8');
  const lines = createLineCutter(onLine, maxChars);
  let pending = '';
  let error: string | undefined;
  const take = (json: string) => {
    if (json.trim() === '') return;
    let message: BuildMessage;
    try {
      message = JSON.parse(json) as BuildMessage;
    } catch {
      return;
    }
    if (typeof message.stream === 'string') lines.push(message.stream);
    else if (typeof message.error === 'string') error = message.error;
    else if (typeof message.status === 'string' && message.progressDetail === undefined) {
      lines.push(`${typeof message.id === 'string' ? `${message.id}: ` : ''}${message.status}\n`);
    }
  };
  for await (const chunk of output) {
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const messages = pending.split('\n');
    pending = messages.pop() ?? '';
    for (const message of messages) take(message);
  }
  take(pending + decoder.end());
  lines.end();
  if (error !== undefined) throw new ImageBuildError(error.trim());
}
