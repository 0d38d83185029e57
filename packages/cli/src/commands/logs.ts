import { parseLogStreamLine } from '@slipway/contract';
import { EXIT } from '../cliErrors.js';
import type { Output } from '../output.js';
import type { CommandContext } from './commandContext.js';

/** One log line: `logs --json` prints `{lines: LogLine[]}`; `logs --follow --json` one LogLine per stdout line. */
export interface LogLine {
  timestamp: string;
  service: string;
  /** stdout or stderr. */
  source: string;
  message: string;
}

const text = (line: LogLine) => `${line.service} | ${line.message}`;

/** A stream event, read by the contract's parser of every log stream line. */
export function parseStreamLine(data: string): LogLine | undefined {
  const line = parseLogStreamLine(data);
  return line
    ? { timestamp: line.ts, service: line.service, source: line.source, message: line.log }
    : undefined;
}

export async function logs(
  ctx: CommandContext,
  args: { workspace: string; service: string | undefined; follow: boolean; lines: number },
): Promise<number> {
  if (!args.follow) {
    const { logs: stored } = await ctx.client.call('workspaceLogs', {
      params: { name: args.workspace },
      query: { lines: args.lines, ...(args.service ? { service: args.service } : {}) },
    });
    const lines: LogLine[] = stored.map((l) => ({
      timestamp: l.timestamp,
      service: l.service,
      source: l.source,
      message: l.message,
    }));
    ctx.output.result({ lines }, (r) => r.lines.map(text));
    return EXIT.ok;
  }
  return followLogs(ctx, args);
}

/** History, then live lines, until the server ends the stream or the user interrupts (exit 0 either way). */
async function followLogs(
  ctx: CommandContext,
  args: { workspace: string; service: string | undefined; lines: number },
): Promise<number> {
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const events = ctx.client.stream(
      'workspaceLogStream',
      {
        params: { name: args.workspace },
        query: {
          follow: 'true',
          initial_lines: args.lines,
          ...(args.service ? { service: args.service } : {}),
        },
      },
      stop.signal,
    );
    for await (const data of events) print(ctx.output, data);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
  return EXIT.ok;
}

function print(output: Output, data: string) {
  const line = parseStreamLine(data);
  if (line) output.line(line, text(line));
}
