import { StepFailure } from '../rollout/stepFailure.js';

/** The deployment metadata key of the commit a deployment must deploy (a preview's approved or pushed head). */
export const EXPECTED_SHA = 'expected_sha';

export function expectedShaOf(row: { metadata: unknown }): string | undefined {
  const value = (row.metadata as Record<string, unknown> | null)?.[EXPECTED_SHA];
  return typeof value === 'string' ? value : undefined;
}

/** Fails the fetch when the ref moved on from the commit this deployment was started for. */
export function assertExpectedCommit(row: { metadata: unknown }, fetched: string) {
  const expected = expectedShaOf(row);
  if (expected && expected !== fetched) {
    throw new StepFailure(
      `The pull request moved on from ${expected.slice(0, 7)} to ${fetched.slice(0, 7)}: its newer commit deploys next`,
    );
  }
}
