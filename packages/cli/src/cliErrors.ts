/**
 * Exit statuses, one meaning each, so a script can tell them apart (README, "Exit statuses"):
 * - 0 `ok`: done;
 * - 1 `failed`: what was asked for ran and failed — a deployment, a backup, a restore — or `status` found the
 *   workspace failed;
 * - 2 `usage`: the command line (or the CLI's own settings: the config file, SLIPWAY_URL) cannot be used;
 * - 3 `refused`: the server said no (a 4xx answer: not signed in, a missing scope, no such workspace, a conflict),
 *   or the CLI refused before asking it (a variable `env unset` cannot find, a declined confirmation);
 * - 4 `unreachable`: no usable answer — a network error, a timeout, a 5xx (the server failed, or a proxy in front
 *   of it found none), an answer that is not Slipway's; trying again later may help;
 * - 70 `internal`: a bug in the CLI itself (sysexits' EX_SOFTWARE);
 * - 130 `interrupted`: Ctrl-C at a question (128 + SIGINT, as a shell reports it).
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  refused: 3,
  unreachable: 4,
  internal: 70,
  interrupted: 130,
} as const;
export type ExitStatus = (typeof EXIT)[keyof typeof EXIT];

/** A failure said in one plain sentence on stderr, and the exit status it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitStatus,
  ) {
    super(message);
  }
}

/** The command line (or the CLI's own settings) asked for something that cannot be: exit status 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** Refused before or by the server: exit status 3. */
export class RefusedError extends CliError {
  constructor(message: string) {
    super(message, EXIT.refused);
  }
}

/** No usable answer from the server: exit status 4. */
export class UnreachableError extends CliError {
  constructor(message: string) {
    super(message, EXIT.unreachable);
  }
}

/** The server answered with an error: its status, its `error` sentence and `code`; 4xx refuses, 5xx is 4. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message, status >= 500 ? EXIT.unreachable : EXIT.refused);
  }
}

/** What `--json` prints on stdout when a command ends in an error (its sentence goes to stderr as well). */
export interface ErrorDocument {
  error: string;
  exitCode: number;
  /** The server's error code (`insufficient_scope`, `workspace_not_found`, …) when it answered with one. */
  code?: string;
  /** The HTTP status of the server's answer, when the error is one. */
  status?: number;
}

export function errorDocument(error: CliError): ErrorDocument {
  const document: ErrorDocument = { error: error.message, exitCode: error.exitCode };
  if (error instanceof ApiError) {
    if (error.code) document.code = error.code;
    document.status = error.status;
  }
  return document;
}
