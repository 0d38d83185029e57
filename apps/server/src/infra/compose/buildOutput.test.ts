import { describe, expect, it } from 'vitest';
import { followBuild, ImageBuildError, MAX_LINE_CHARS } from './buildOutput.js';

/** The engine's build output: one JSON message a line, as the classic builder writes them. */
const engineBytes = (messages: object[]) =>
  Buffer.from(messages.map((message) => `${JSON.stringify(message)}\r\n`).join(''));

/** `bytes` as the socket may hand them over: cut at each of `cuts` (byte offsets, ascending). */
async function* chunksAt(bytes: Buffer, cuts: number[]) {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

async function linesOf(bytes: Buffer, cuts: number[], maxChars?: number) {
  const lines: string[] = [];
  await followBuild(chunksAt(bytes, cuts), (line) => lines.push(line), maxChars);
  return lines;
}

/**
 * A step that prints `long` without ending its line, in the messages `parts` make of it, between two
 * ordinary lines. What comes back: the two lines around pieces whose bytes are `long`'s, none too long.
 */
function expectWhole(lines: string[], long: string, maxChars: number) {
  expect(lines[0]).toBe('Step 1');
  expect(lines.slice(-2)).toEqual(['done', '---> ab']);
  const pieces = lines.slice(1, -2);
  expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(maxChars);
  const bytes = Buffer.concat(pieces.map((piece) => Buffer.from(piece)));
  // Compared whole and quickly (a megabyte-size line); the first difference says where on failure.
  const expected = Buffer.from(long);
  const differsAt = bytes.findIndex((byte, index) => byte !== expected[index]);
  expect({ length: bytes.length, differsAt }).toEqual({ length: Buffer.byteLength(long), differsAt: -1 });
}

const stepPrinting = (long: string, parts: number[]) => {
  const bounds = [0, ...parts, long.length];
  return engineBytes([
    { stream: 'Step 1\n' },
    ...bounds.slice(1).map((end, index) => ({ stream: long.slice(bounds[index], end) })),
    { stream: '\ndone\r' },
    { stream: '\n' },
    { stream: '---> ab\n' },
  ]);
};

describe('the lines of a build', () => {
  // Cut every 8 characters: a piece of spaces, a surrogate pair across a cut, a piece ending in `\r`.
  const small = `abcdefgh${' '.repeat(8)}héllo€ wabcdefg😀restx\rmore tail`;
  const smallBytes = stepPrinting(small, [10, 20]);

  it('gives back the bytes of a line cut into pieces, wherever the chunks end (every cut, every close pair)', async () => {
    for (let first = 1; first < smallBytes.length; first++) {
      expectWhole(await linesOf(smallBytes, [first], 8), small, 8);
      // Two cuts within a character's 4 bytes leave it in three chunks.
      for (let second = first + 1; second < Math.min(first + 8, smallBytes.length); second++) {
        expectWhole(await linesOf(smallBytes, [first, second], 8), small, 8);
      }
    }
  });

  it('gives back the bytes of a line cut three times at 16 KiB, at every chunk end around the cuts and its characters', async () => {
    const long =
      `${'a'.repeat(MAX_LINE_CHARS - 1)}😀${'b'.repeat(MAX_LINE_CHARS - 3)}\r${' '.repeat(MAX_LINE_CHARS)}` +
      `${'é€'.repeat(50)} end`;
    const bytes = stepPrinting(long, [5000, 20_000, 40_000]);
    const landmarks = ['😀', 'b\\r', '  ', ' é€', 'é€ end', 'bbbb"'].map((text) => bytes.indexOf(text));
    expect(landmarks.every((at) => at > 0)).toBe(true);
    for (const at of landmarks) {
      for (let cut = at - 12; cut <= at + 12; cut++)
        expectWhole(await linesOf(bytes, [cut]), long, MAX_LINE_CHARS);
    }
  });

  it('keeps whole lines as the engine ends them: CRLF, blank lines, pull status, the error', async () => {
    const bytes = engineBytes([
      { status: 'Pulling from library/busybox', id: '1.36' },
      { status: 'Downloading', progressDetail: { current: 1 }, id: 'abc' },
      { stream: 'one\r\n\n   \ntwo\n' },
      { errorDetail: { message: 'boom' }, error: 'boom\n' },
    ]);
    const lines: string[] = [];
    await expect(followBuild(chunksAt(bytes, [7, 61]), (line) => lines.push(line))).rejects.toThrow(
      new ImageBuildError('boom'),
    );
    expect(lines).toEqual(['1.36: Pulling from library/busybox', 'one', 'two']);
  });
});
