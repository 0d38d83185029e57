/** Exit statuses: 0 done, 1 the thing asked for failed (or the server refused it), 2 the command line was wrong. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A failure said in one plain sentence on stderr, and the exit status it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

/** The command line asked for something that cannot be: exit status 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** The server answered with an error: its status and its `error` sentence. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}
