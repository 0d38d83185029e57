/**
 * What a command prints. With --json, stdout gets exactly one JSON document (or, for a followed log, one JSON
 * object per line) and nothing else; people's text goes to stdout otherwise. Progress and notes always go to
 * stderr, so `slipway deploy … --json > result.json` keeps a clean file while a CI log still shows the steps.
 */
export class Output {
  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
  ) {}

  /** The command's result: `data` as JSON with --json, else the lines `text` makes of it. */
  result<T>(data: T, text: (data: T) => string | string[]): void {
    if (this.json) {
      this.document(data);
      return;
    }
    const lines = text(data);
    const joined = Array.isArray(lines) ? lines.join('\n') : lines;
    if (joined) this.stdout.write(`${joined}\n`);
  }

  /** One JSON document on stdout, whatever the mode (an error's `{error, exitCode}` under --json). */
  document(data: unknown): void {
    this.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  }

  /** One line of a stream: a JSON object per line with --json, else the text. */
  line(data: unknown, text: string): void {
    this.stdout.write(this.json ? `${JSON.stringify(data)}\n` : `${text}\n`);
  }

  /** A note for the person watching (stderr). */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** Whether stderr is a terminal (a progress bar redraws in place there). */
  get interactive(): boolean {
    return this.stderr.isTTY === true;
  }

  /** Writes raw text to stderr (the progress bar's redraws). */
  raw(text: string): void {
    this.stderr.write(text);
  }
}

/** Lines as a table: each column as wide as its widest cell. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** Bytes as the web app shows them (the spec's units): steps of 1024, GB the largest unit, one decimal. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** Terminal escape sequences (CSI, OSC) and the other control characters but tab and newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it matches
const CONTROL = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|[\x00-\x08\x0b-\x1f\x7f]/g;

/**
 * A line from a build or a service, made safe to print: terminal escape sequences (Docker colours a build's
 * stderr) and other control characters are taken out, so a log line cannot move the cursor or retitle the
 * terminal it is shown in. Tabs stay.
 */
export const printable = (line: string): string => line.replace(CONTROL, '');
