/**
 * How long Slipway waits for the Docker Engine, call by call: the one table of deadlines. The engine answers
 * most questions from memory in milliseconds; it waits only on a container it cannot lock, and a container whose
 * output nobody reads (an attach connection left open and unread) holds its lock for good once it is asked to
 * stop — after which inspect, top, logs, stats, kill, remove and prune wait on it forever. A deadline turns that
 * wait into a sentence naming the call and the container.
 *
 * Three kinds of deadline:
 * - `answer`: the whole answer within the time (reads, and changes the engine makes at once);
 * - `start`: a stream (logs followed, events, attach, a stats stream) must start within the time, then runs for as
 *   long as it runs — it is never cut;
 * - none: builds, pulls, image loads and exports, archive copies, exec streams and `wait` take as long as their
 *   work does (their callers bound them: a step's timeout, a cancel).
 */

const SECOND = 1000;

export type Deadline = { kind: 'answer' | 'start'; ms: number } | undefined;

/** The query of a call (dockerode's options for it). */
type Query = Record<string, unknown>;

interface EngineCall {
  method: string;
  /** The API path without its version and query; a capture group is the id or name the call is about. */
  path: RegExp;
  /** What Slipway asked, after "when asked": `to inspect container 0123456789ab`. */
  asked: (subject: string) => string;
  deadline: (query: Query, isStream: boolean) => Deadline;
  /** The capture group names a container: past its deadline, the engine did not answer about that container. */
  aboutContainer?: true;
}

const answer = (seconds: number) => (): Deadline => ({ kind: 'answer', ms: seconds * SECOND });
const start = (seconds: number) => (): Deadline => ({ kind: 'start', ms: seconds * SECOND });
const none = (): Deadline => undefined;
/** A call that is a stream when asked so (`follow`, `stream`): the stream must start in time, else the answer. */
const streamOrAnswer =
  (seconds: number) =>
  (_query: Query, isStream: boolean): Deadline => ({
    kind: isStream ? 'start' : 'answer',
    ms: seconds * SECOND,
  });
/** `stop` and `restart` wait `t` seconds for the process before killing it; without `t`, the container's own stop
 * timeout applies, which Slipway does not know: up to 2 minutes is allowed for it. */
const afterGrace =
  (extraSeconds: number) =>
  (query: Query): Deadline => {
    const grace = Number(query.t);
    return {
      kind: 'answer',
      ms: ((Number.isFinite(grace) && grace >= 0 ? grace : 120) + extraSeconds) * SECOND,
    };
  };

const ID = '([^/]+)';
/** A call about one container: `/containers/{id}/{action}`. */
const aboutContainer = (
  method: string,
  action: string,
  asked: (subject: string) => string,
  deadline: EngineCall['deadline'],
): EngineCall => ({
  method,
  path: new RegExp(`^/containers/${ID}/${action}$`),
  asked,
  deadline,
  aboutContainer: true,
});
const container = (subject: string) => `container ${shortId(subject)}`;

/** Every call Slipway makes, matched in order; a call not listed gets DEFAULT_DEADLINE. */
export const ENGINE_CALLS: readonly EngineCall[] = [
  // The engine itself.
  { method: 'GET', path: /^\/_ping$/, asked: () => 'to answer a ping', deadline: answer(10) },
  { method: 'GET', path: /^\/version$/, asked: () => 'for its version', deadline: answer(10) },
  { method: 'GET', path: /^\/info$/, asked: () => 'for its system information', deadline: answer(30) },
  { method: 'GET', path: /^\/system\/df$/, asked: () => 'for its disk usage', deadline: answer(120) },
  { method: 'GET', path: /^\/events$/, asked: () => 'for its events', deadline: start(30) },
  // Containers.
  { method: 'GET', path: /^\/containers\/json$/, asked: () => 'to list containers', deadline: answer(30) },
  {
    method: 'POST',
    path: /^\/containers\/create$/,
    asked: () => 'to create a container',
    deadline: answer(60),
  },
  {
    method: 'POST',
    path: /^\/containers\/prune$/,
    asked: () => 'to prune containers',
    deadline: answer(300),
  },
  aboutContainer('GET', 'json', (s) => `to inspect ${container(s)}`, answer(30)),
  aboutContainer('GET', 'top', (s) => `to list the processes of ${container(s)}`, answer(30)),
  aboutContainer('GET', 'changes', (s) => `for the changes of ${container(s)}`, answer(60)),
  aboutContainer('GET', 'logs', (s) => `for the logs of ${container(s)}`, streamOrAnswer(30)),
  // A reading waits about a second for the engine's second CPU sample (none with `one-shot`).
  aboutContainer('GET', 'stats', (s) => `for the resource usage of ${container(s)}`, streamOrAnswer(15)),
  aboutContainer('GET', 'export', (s) => `to export ${container(s)}`, none),
  aboutContainer('GET', 'archive', (s) => `to copy files out of ${container(s)}`, none),
  aboutContainer('HEAD', 'archive', (s) => `about a path in ${container(s)}`, answer(30)),
  aboutContainer('PUT', 'archive', (s) => `to copy files into ${container(s)}`, none),
  aboutContainer('POST', 'start', (s) => `to start ${container(s)}`, answer(60)),
  aboutContainer('POST', 'stop', (s) => `to stop ${container(s)}`, afterGrace(30)),
  aboutContainer('POST', 'restart', (s) => `to restart ${container(s)}`, afterGrace(60)),
  aboutContainer('POST', 'kill', (s) => `to kill ${container(s)}`, answer(30)),
  aboutContainer('POST', 'pause', (s) => `to pause ${container(s)}`, answer(30)),
  aboutContainer('POST', 'unpause', (s) => `to unpause ${container(s)}`, answer(30)),
  aboutContainer('POST', 'update', (s) => `to update ${container(s)}`, answer(30)),
  aboutContainer('POST', 'rename', (s) => `to rename ${container(s)}`, answer(30)),
  aboutContainer('POST', 'resize', (s) => `to resize the terminal of ${container(s)}`, answer(30)),
  aboutContainer('POST', 'attach', (s) => `to attach to ${container(s)}`, start(30)),
  aboutContainer('POST', 'exec', (s) => `to run a command in ${container(s)}`, answer(30)),
  // Blocks until the container exits: as long as its work.
  aboutContainer('POST', 'wait', (s) => `to wait for ${container(s)}`, none),
  {
    method: 'DELETE',
    path: new RegExp(`^/containers/${ID}$`),
    asked: (s) => `to remove ${container(s)}`,
    deadline: answer(60),
    aboutContainer: true,
  },
  // Commands run in containers: their streams run as long as the command does.
  {
    method: 'POST',
    path: new RegExp(`^/exec/${ID}/start$`),
    asked: (s) => `to run command ${shortId(s)}`,
    deadline: none,
  },
  {
    method: 'GET',
    path: new RegExp(`^/exec/${ID}/json$`),
    asked: (s) => `about command ${shortId(s)}`,
    deadline: answer(30),
  },
  {
    method: 'POST',
    path: new RegExp(`^/exec/${ID}/resize$`),
    asked: (s) => `to resize command ${shortId(s)}`,
    deadline: answer(30),
  },
  // Images: building, pulling, loading and exporting take as long as their data.
  { method: 'POST', path: /^\/build$/, asked: () => 'to build an image', deadline: none },
  {
    method: 'POST',
    path: /^\/build\/prune$/,
    asked: () => 'to prune the build cache',
    deadline: answer(600),
  },
  { method: 'POST', path: /^\/images\/create$/, asked: () => 'to pull an image', deadline: none },
  { method: 'POST', path: /^\/images\/load$/, asked: () => 'to load images', deadline: none },
  { method: 'GET', path: /^\/images\/get$/, asked: () => 'to export images', deadline: none },
  { method: 'GET', path: /^\/images\/json$/, asked: () => 'to list images', deadline: answer(30) },
  { method: 'POST', path: /^\/images\/prune$/, asked: () => 'to prune images', deadline: answer(600) },
  { method: 'POST', path: /^\/images\/(.+)\/push$/, asked: (s) => `to push image ${s}`, deadline: none },
  { method: 'GET', path: /^\/images\/(.+)\/get$/, asked: (s) => `to export image ${s}`, deadline: none },
  {
    method: 'GET',
    path: /^\/images\/(.+)\/json$/,
    asked: (s) => `to inspect image ${s}`,
    deadline: answer(30),
  },
  {
    method: 'GET',
    path: /^\/images\/(.+)\/history$/,
    asked: (s) => `for the history of image ${s}`,
    deadline: answer(30),
  },
  { method: 'POST', path: /^\/images\/(.+)\/tag$/, asked: (s) => `to tag image ${s}`, deadline: answer(30) },
  // Removing an image deletes its layers from disk.
  { method: 'DELETE', path: /^\/images\/(.+)$/, asked: (s) => `to remove image ${s}`, deadline: answer(120) },
  // Volumes and networks.
  { method: 'GET', path: /^\/volumes$/, asked: () => 'to list volumes', deadline: answer(30) },
  { method: 'POST', path: /^\/volumes\/create$/, asked: () => 'to create a volume', deadline: answer(60) },
  { method: 'POST', path: /^\/volumes\/prune$/, asked: () => 'to prune volumes', deadline: answer(300) },
  { method: 'GET', path: /^\/volumes\/(.+)$/, asked: (s) => `to inspect volume ${s}`, deadline: answer(30) },
  {
    method: 'DELETE',
    path: /^\/volumes\/(.+)$/,
    asked: (s) => `to remove volume ${s}`,
    deadline: answer(60),
  },
  { method: 'GET', path: /^\/networks$/, asked: () => 'to list networks', deadline: answer(30) },
  { method: 'POST', path: /^\/networks\/create$/, asked: () => 'to create a network', deadline: answer(60) },
  { method: 'POST', path: /^\/networks\/prune$/, asked: () => 'to prune networks', deadline: answer(120) },
  {
    method: 'POST',
    path: new RegExp(`^/networks/${ID}/connect$`),
    asked: (s) => `to connect a container to network ${shortId(s)}`,
    deadline: answer(60),
  },
  {
    method: 'POST',
    path: new RegExp(`^/networks/${ID}/disconnect$`),
    asked: (s) => `to disconnect a container from network ${shortId(s)}`,
    deadline: answer(60),
  },
  {
    method: 'GET',
    path: new RegExp(`^/networks/${ID}$`),
    asked: (s) => `to inspect network ${shortId(s)}`,
    deadline: answer(30),
  },
  {
    method: 'DELETE',
    path: new RegExp(`^/networks/${ID}$`),
    asked: (s) => `to remove network ${shortId(s)}`,
    deadline: answer(60),
  },
];

/** A call the table does not list: an answer within a minute; a stream is never cut. */
const DEFAULT_DEADLINE = (isStream: boolean): Deadline =>
  isStream ? undefined : { kind: 'answer', ms: 60 * SECOND };

/** A 64-hex id as the docker CLI shows it (12 characters); names as they are. */
export function shortId(subject: string): string {
  return /^[0-9a-f]{64}$/.test(subject) ? subject.slice(0, 12) : subject;
}

export interface CallDeadline {
  /** After "when asked": what the call was about. */
  asked: string;
  deadline: Deadline;
  /** The container the call is about, when it is about one. */
  containerId?: string;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The table's entry for one call the modem is asked to make. */
export function deadlineOf(call: {
  method?: string | undefined;
  path: string;
  options?: Query | undefined;
  isStream?: boolean | undefined;
  hijack?: boolean | undefined;
}): CallDeadline {
  const method = (call.method ?? 'GET').toUpperCase();
  const path = call.path.replace(/\?.*$/, '');
  const isStream = Boolean(call.isStream || call.hijack);
  const query = call.options ?? {};
  for (const entry of ENGINE_CALLS) {
    if (entry.method !== method) continue;
    const match = entry.path.exec(path);
    if (!match) continue;
    const subject = decoded(match[1] ?? '');
    return {
      asked: entry.asked(subject),
      deadline: entry.deadline(query, isStream),
      ...(entry.aboutContainer ? { containerId: subject } : {}),
    };
  }
  return { asked: `for ${method} ${path}`, deadline: DEFAULT_DEADLINE(isStream) };
}

const seconds = (ms: number) =>
  `${ms >= 10 * SECOND ? Math.round(ms / SECOND) : Number((ms / SECOND).toFixed(1))} s`;

/** A call the engine did not answer in time: the sentence names the call and what it was about. */
export class EngineDeadlineError extends Error {
  readonly code = 'ENGINE_DEADLINE';
  readonly containerId: string | undefined;

  constructor(
    call: CallDeadline,
    readonly ms: number,
    kind: 'answer' | 'start',
  ) {
    const answered = kind === 'start' ? 'start answering' : 'answer';
    super(`The Docker Engine did not ${answered} within ${seconds(ms)} when asked ${call.asked}`);
    this.name = 'EngineDeadlineError';
    this.containerId = call.containerId;
  }
}

export const isEngineDeadlineError = (error: unknown): error is EngineDeadlineError =>
  error instanceof EngineDeadlineError;
