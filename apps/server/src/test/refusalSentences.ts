import { expect } from 'vitest';
import type { CheckResult } from '../compose-policy/composeCheck.js';

/**
 * Every refusal sentence a policy test saw, for one look at the end: none names a path of the Slipway host
 * (issue 39: a refusal reaches the build log, the API and a pull request's comment; its paths are shown relative
 * to the repository).
 */
export function refusalSentences() {
  const seen: string[] = [];
  return {
    /** Records the sentences of violations (or of a check's result) and answers them unchanged. */
    ofViolations<T extends { message: string }>(violations: T[]): T[] {
      seen.push(...violations.map((violation) => violation.message));
      return violations;
    },
    ofResult<T extends CheckResult>(result: T): T {
      if (result.kind === 'refused') seen.push(result.message);
      else seen.push(...result.violations.map((violation) => violation.message));
      return result;
    },
    /** No sentence seen holds any of `hostPaths` (the data directory, the checkout); and there were some. */
    expectNoHostPath(...hostPaths: string[]) {
      expect(seen.length).toBeGreaterThan(0);
      for (const sentence of seen) {
        for (const hostPath of hostPaths) expect(sentence).not.toContain(hostPath);
      }
    },
  };
}
