import {
  errorBodySchema,
  ROUTES,
  type RouteCallArgs,
  type RouteInput,
  type RouteName,
  type RouteResponse,
  type Routes,
  responseSchemaFor,
  routeRequest,
} from '@slipway/contract';
import { ApiError, CliError, EXIT, UnreachableError } from './cliErrors.js';
import type { Target } from './settings.js';

type JsonRoute = { [N in RouteName]: Routes[N]['kind'] extends 'json' ? N : never }[RouteName];
type StreamRoute = { [N in RouteName]: Routes[N]['kind'] extends 'sse' ? N : never }[RouteName];

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
};

/**
 * Calls Slipway's API by route name, typed by the contract's route table (routeRequest is the web app's, too)
 * and checked by its zod schemas: an answer of another shape is an error here, not a crash three calls later.
 */
export class SlipwayClient {
  constructor(readonly target: Target) {}

  /** Calls a JSON route and answers its body, parsed with the route's response schema. */
  async call<N extends JsonRoute>(
    name: N,
    ...[call]: RouteCallArgs<RouteInput<N>>
  ): Promise<RouteResponse<Routes[N]>> {
    const what = `${ROUTES[name].method} ${ROUTES[name].path}`;
    const deadline = AbortSignal.timeout(this.target.timeoutMs);
    const response = await this.send(name, call, 'application/json', deadline);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.unreachable(error, deadline);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UnreachableError(
        `${this.target.url} answered ${what} with something that is not JSON: is it a Slipway server?`,
      );
    }
    const schema = responseSchemaFor(ROUTES[name], response.status);
    const parsed = schema?.safeParse(json);
    if (!parsed?.success) {
      const issue = parsed?.error.issues[0];
      throw new UnreachableError(
        `Slipway at ${this.target.url} answered ${what} (${response.status}) in a shape this CLI does not know` +
          (issue ? ` (${issue.path.join('.') || 'body'}: ${issue.message})` : '') +
          '; is the CLI as new as the server?',
      );
    }
    return parsed.data as RouteResponse<Routes[N]>;
  }

  /** Opens a Server-Sent Events route and yields each event's data, until the server ends it or `signal` aborts. */
  async *stream<N extends StreamRoute>(
    name: N,
    call: RouteInput<N>,
    signal?: AbortSignal,
  ): AsyncGenerator<string> {
    // The deadline covers the answer's headers only: a stream may then stay open as long as it has lines.
    const headers = new AbortController();
    const timer = setTimeout(
      () => headers.abort(new DOMException('timed out', 'TimeoutError')),
      this.target.timeoutMs,
    );
    let response: Response;
    try {
      response = await this.send(
        name,
        call,
        'text/event-stream',
        signal ? AbortSignal.any([signal, headers.signal]) : headers.signal,
      );
    } catch (error) {
      // The caller stopped it (Ctrl-C on `logs --follow`) before it opened: a stream that ended, as after.
      if (signal?.aborted) return;
      throw error;
    } finally {
      clearTimeout(timer);
    }
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let data: string[] = [];
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
          if (line === '') {
            if (data.length > 0) yield data.join('\n');
            data = [];
          } else if (line.startsWith('data:')) {
            data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
          } // comments (`: keep-alive`), `event:` and `id:` lines carry nothing the CLI shows
        }
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw new UnreachableError(`The stream from ${this.target.url} broke off: ${(error as Error).message}`);
    }
  }

  private async send<N extends RouteName>(
    name: N,
    call: RouteInput<N> | undefined,
    accept: string,
    signal: AbortSignal,
  ): Promise<Response> {
    const request = routeRequest(name, call);
    const url = new URL(`${this.target.url}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept };
    if (this.target.token) headers.authorization = `Bearer ${this.target.token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
    } catch (error) {
      throw this.unreachable(error, signal);
    }
    if (!response.ok) throw await this.failure(response, `${request.method} ${ROUTES[name].path}`);
    return response;
  }

  /** A request that got no (whole) answer, as one sentence: exit status 4. */
  private unreachable(error: unknown, signal: AbortSignal): CliError {
    const reason = signal.reason as { name?: string } | undefined;
    if (signal.aborted && reason?.name === 'TimeoutError') {
      return new UnreachableError(
        `Slipway at ${this.target.url} did not answer within ${this.target.timeoutMs / 1000} s (SLIPWAY_TIMEOUT)`,
      );
    }
    if (signal.aborted) return new CliError('Interrupted', EXIT.interrupted);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? '';
    const why =
      CONNECTION_ERRORS[code] ?? (cause?.message || code || (error as Error).message || 'no answer');
    return new UnreachableError(`Cannot reach Slipway at ${this.target.url}: ${why}`);
  }

  /**
   * An error answer as one sentence: the server's `error` (and `detail`), or what a bare status means. A 4xx
   * refuses (exit 3); a 5xx — the server failed, or a proxy in front of it found none — is exit 4.
   */
  private async failure(response: Response, what: string): Promise<ApiError> {
    // A body that is not JSON (a proxy's error page) is said below as the bare status.
    const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
    const { status, statusText } = response;
    const code = parsed.data?.code;
    if (status === 401 && !this.target.token) {
      return new ApiError(
        401,
        `Not signed in to ${this.target.url}: run \`slipway login\` or set SLIPWAY_TOKEN`,
        code,
      );
    }
    const said = parsed.success
      ? parsed.data.detail && parsed.data.detail !== parsed.data.error
        ? `${parsed.data.error}: ${parsed.data.detail}`
        : parsed.data.error
      : undefined;
    if (status >= 500) {
      return new ApiError(
        status,
        `Slipway at ${this.target.url} could not answer ${what} (${status} ${statusText})${said ? `: ${said}` : ''}`,
        code,
      );
    }
    if (said) return new ApiError(status, said, code);
    if (status === 404) {
      return new ApiError(status, `${this.target.url} has no ${what} (404): is it a Slipway server?`, code);
    }
    return new ApiError(
      status,
      `Slipway at ${this.target.url} refused ${what} (${status} ${statusText})`,
      code,
    );
  }
}
