import YAML from 'yaml';

/**
 * Bounds on what one compose project may cost to read, checked before any expensive step: a file of megabytes,
 * 200,000 keys or an alias bomb is refused here, in the check worker, before Compose or the policy sees it.
 */
export const COMPOSE_LIMITS = {
  /** Each compose or extends file. */
  fileBytes: 1024 * 1024,
  /** `.env` and each `env_file`. */
  envFileBytes: 256 * 1024,
  /** Alias expansion (yaml's own guard against "billion laughs"). */
  aliasCount: 100,
  services: 100,
  /** Mapping keys, sequence items and scalars together, after aliases are expanded. */
  nodes: 20_000,
  /** Lines and flow separators, counted before parsing (a cheap bound on what the parser will build). */
  separators: 30_000,
  depth: 64,
  /** `extends` chains across files. */
  extendsDepth: 8,
  /** Files walked in each build context when looking for links out of the repository. */
  contextEntries: 100_000,
  /** What `compose config` may print. */
  normalizedBytes: 4 * 1024 * 1024,
  /** Each Dockerfile. */
  dockerfileBytes: 512 * 1024,
  /** Each build context's `.dockerignore` (read by the server when it packs the context). */
  dockerignoreBytes: 256 * 1024,
} as const;

export class ComposeLimitError extends Error {
  override name = 'ComposeLimitError';
}

/** Parses one compose file's text within the limits; the message names the file and the limit. */
export function parseComposeText(text: string, fileName: string): unknown {
  if (Buffer.byteLength(text) > COMPOSE_LIMITS.fileBytes) {
    throw new ComposeLimitError(`${fileName} is larger than the limit of 1 MiB`);
  }
  // The YAML parser's cost grows with the entries, so count them cheaply before it runs.
  let separators = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 10 || code === 44) separators++; // newline, comma
  }
  if (separators > COMPOSE_LIMITS.separators) {
    throw new ComposeLimitError(
      `${fileName} has more than ${COMPOSE_LIMITS.separators} lines and list items`,
    );
  }
  let parsed: unknown;
  try {
    // `merge`: `<<: *anchor` is seen merged, as Compose sees it, so a merged env_file cannot hide from the checks.
    // `uniqueKeys: false`: yaml's duplicate-key check is quadratic in a mapping's size (the later key wins, as in
    // PyYAML, which Compose v1 uses).
    parsed = YAML.parse(text, { maxAliasCount: COMPOSE_LIMITS.aliasCount, merge: true, uniqueKeys: false });
  } catch (error) {
    const first = (error as Error).message.split('\n')[0] ?? '';
    if (/alias/i.test(first)) {
      throw new ComposeLimitError(`${fileName} expands too many YAML aliases (${first})`);
    }
    throw new ComposeLimitError(`${fileName} is not valid YAML: ${first}`);
  }
  countNodes(parsed, fileName);
  const services = (parsed as { services?: unknown } | null)?.services;
  if (services && typeof services === 'object' && Object.keys(services).length > COMPOSE_LIMITS.services) {
    throw new ComposeLimitError(
      `${fileName} defines ${Object.keys(services).length} services; the limit is ${COMPOSE_LIMITS.services}`,
    );
  }
  return parsed;
}

/** Counts nodes iteratively (no recursion to blow the stack), stopping at the first limit passed. */
function countNodes(root: unknown, fileName: string) {
  const stack: [unknown, number][] = [[root, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > COMPOSE_LIMITS.nodes) {
      throw new ComposeLimitError(`${fileName} has more than ${COMPOSE_LIMITS.nodes} keys and values`);
    }
    if (depth > COMPOSE_LIMITS.depth) {
      throw new ComposeLimitError(`${fileName} is nested more than ${COMPOSE_LIMITS.depth} levels deep`);
    }
    if (Array.isArray(value)) for (const item of value) stack.push([item, depth + 1]);
    else if (value && typeof value === 'object') {
      const entries = Object.values(value);
      nodes += entries.length; // the keys
      for (const item of entries) stack.push([item, depth + 1]);
    }
  }
}
