/**
 * The containers an engine did not answer about: a call about one passed its deadline (engineDeadlines.ts), and
 * no call about it has been answered since. Kept per engine, in this process (each replica learns it from its own
 * calls), so that work over many containers — the admin panel's cards, the health monitor's pass, the log
 * collector — reports such a container and goes on without it instead of waiting out a deadline every time.
 */

/** How often a container the engine did not answer about is asked again (in the background). */
export const ASK_AGAIN_MS = 60_000;
/** Forgotten after this long without being asked about (it was removed, or nobody needs it). */
const FORGET_MS = 60 * 60_000;

export interface UnansweredContainer {
  /** The container's id (or name) as the call gave it. */
  containerId: string;
  /** The sentence of the call that passed its deadline. */
  sentence: string;
  since: Date;
  lastAskedAt: number;
}

const byEngine = new Map<string, Map<string, UnansweredContainer>>();

const HEX_ID = /^[0-9a-f]{12,64}$/;
/** The same container, by its full id or a prefix of it (the CLI's 12 characters). */
const sameContainer = (a: string, b: string) =>
  a === b || (HEX_ID.test(a) && HEX_ID.test(b) && (a.startsWith(b) || b.startsWith(a)));

function find(engine: string, containerId: string): UnansweredContainer | undefined {
  const entries = byEngine.get(engine);
  if (!entries || entries.size === 0) return undefined;
  const exact = entries.get(containerId);
  if (exact) return exact;
  for (const entry of entries.values()) if (sameContainer(entry.containerId, containerId)) return entry;
  return undefined;
}

/** A call about the container passed its deadline (the modem's deadlines call this). */
export function recordUnanswered(engine: string, containerId: string, sentence: string): void {
  const entries = byEngine.get(engine) ?? new Map<string, UnansweredContainer>();
  byEngine.set(engine, entries);
  const now = Date.now();
  for (const [id, entry] of entries) if (now - entry.lastAskedAt > FORGET_MS) entries.delete(id);
  const known = find(engine, containerId);
  if (known) {
    known.sentence = sentence;
    known.lastAskedAt = now;
  } else {
    entries.set(containerId, { containerId, sentence, since: new Date(now), lastAskedAt: now });
  }
}

/** A call about the container was answered (whatever the answer, a 404 too): the engine answers about it again. */
export function recordAnswered(engine: string, containerId: string): void {
  const entries = byEngine.get(engine);
  if (!entries || entries.size === 0) return;
  const known = find(engine, containerId);
  if (known) entries.delete(known.containerId);
}

/** Every container the engine did not answer about, oldest first. */
export function unansweredOn(engine: string): UnansweredContainer[] {
  return [...(byEngine.get(engine)?.values() ?? [])].sort((a, b) => a.since.getTime() - b.since.getTime());
}

/**
 * The entry of a container the engine did not answer about, or undefined when it answers (as far as this process
 * knows). Once every ASK_AGAIN_MS the container is asked again through `askAgain`, in the background: its answer
 * (or its deadline) updates the entry, and the caller never waits for it.
 */
export function stillUnanswered(
  engine: string,
  containerId: string,
  askAgain: () => Promise<unknown>,
): UnansweredContainer | undefined {
  const known = find(engine, containerId);
  if (!known) return undefined;
  if (Date.now() - known.lastAskedAt >= ASK_AGAIN_MS) {
    known.lastAskedAt = Date.now();
    // Its outcome is recorded by the deadlines themselves (answered, or unanswered again): nothing to do here.
    askAgain().catch(() => {});
  }
  return known;
}
