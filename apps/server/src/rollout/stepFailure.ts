/** A failure the user can act on: its message ends the deployment's step; `metadata` goes to GET /api/deployment/job/{id}. */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    message: string,
    readonly metadata: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
