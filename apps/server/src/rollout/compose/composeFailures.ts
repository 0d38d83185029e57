/** A base image that could not be found or pulled, from the lines of a build or start. */
function pullFailure(lines: readonly string[]): string | undefined {
  const pull = lines.find((line) =>
    /pull access denied|manifest unknown|manifest for .* not found|repository does not exist|no such image|not found: manifest|failed to resolve reference|error pulling image|Get "?https?:\/\//i.test(
      line,
    ),
  );
  if (!pull) return undefined;
  const image = /(?:image|for|repository) ['"]?([\w./:@-]+?)['"]?(?:[,:\s]|$)/i.exec(pull)?.[1];
  return `Image ${image ? `'${image}' ` : ''}was not found or could not be pulled: ${pull}`;
}

const buildStepFailure = (service: string | undefined, reason: string | undefined) =>
  `The build step failed${service ? ` for service '${service}'` : ''}: ${reason}`;

/** Why the engine refused or ended one service's build (imageBuild.ts), in the same plain words. */
export function classifyBuildError(service: string, error: string): string {
  return pullFailure([error]) ?? buildStepFailure(service, error);
}

/** Why `docker compose up` or `build` failed, in the same plain words, from the CLI's output. */
export function classifyComposeFailure(output: string, what: 'build' | 'up'): string | undefined {
  const lines = output.split('\n').map((line) => line.trim());
  // The CLI refused the project file itself, before building or starting anything.
  const invalid = lines.findIndex((line) =>
    /The Compose file .* is invalid because:|^(ERROR: )?Error while attempting to convert|^validating .+: /.test(
      line,
    ),
  );
  if (invalid !== -1) {
    const [first, ...rest] = lines.slice(invalid).filter(Boolean);
    const reason = /is invalid because:$/.test(first!) ? rest.slice(0, 2).join(' ') : first!;
    return `The compose file is not valid: ${reason.replace(/^(ERROR: )/, '')}`;
  }
  const pull = pullFailure(lines);
  if (pull) return pull;
  if (what === 'build') {
    const failedService = lines
      .map((line) => /Service '([^']+)' failed to build/.exec(line)?.[1])
      .find(Boolean);
    const step = lines.find((line) =>
      /returned a non-zero code|did not complete successfully|executor failed/i.test(line),
    );
    if (failedService || step) {
      return buildStepFailure(failedService, step ?? lines.filter(Boolean).pop());
    }
  }
  const oneShot = lines
    .map((line) => /Service "?'?([\w.-]+)'?"? didn't complete successfully: exit (\d+)/.exec(line))
    .find(Boolean);
  if (oneShot) return `Service '${oneShot[1]}' exited with code ${oneShot[2]}`;
  return undefined;
}
