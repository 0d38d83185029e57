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
import { ApiError, CliError } from './cliErrors.js';
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
    const response = await this.send(name, call, 'application/json');
    const text = await response.text();
    const what = `${ROUTES[name].method} ${ROUTES[name].path}`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError(`Slipway at ${this.target.url} answered ${what} with something that is not JSON`);
    }
    const schema = responseSchemaFor(ROUTES[name], response.status);
    const parsed = schema?.safeParse(json);
    if (!parsed?.success) {
      const issue = parsed?.error.issues[0];
      throw new CliError(
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
    const response = await this.send(name, call, 'text/event-stream', signal);
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
      throw new CliError(`The stream from ${this.target.url} broke off: ${(error as Error).message}`);
    }
  }

  private async send<N extends RouteName>(
    name: N,
    call: RouteInput<N> | undefined,
    accept: string,
    signal?: AbortSignal,
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
        signal: signal ?? null,
      });
    } catch (error) {
      const code = ((error as { cause?: { code?: string } }).cause?.code ?? '') as string;
      const reason =
        CONNECTION_ERRORS[code] ?? ((error as { cause?: Error }).cause?.message || code || 'no answer');
      throw new CliError(`Cannot reach Slipway at ${this.target.url}: ${reason}`);
    }
    if (!response.ok) throw await this.failure(response);
    return response;
  }

  /** An error answer as one sentence: the server's `error` (and `detail`), or what a bare status means. */
  private async failure(response: Response): Promise<ApiError> {
    const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
    if (response.status === 401 && !this.target.token) {
      return new ApiError(
        401,
        `Not signed in to ${this.target.url}: run \`slipway login\` or set SLIPWAY_TOKEN`,
        parsed.data?.code,
      );
    }
    if (!parsed.success) {
      return new ApiError(
        response.status,
        `Slipway at ${this.target.url} answered ${response.status} ${response.statusText}`,
        undefined,
      );
    }
    const { error, detail, code } = parsed.data;
    return new ApiError(response.status, detail && detail !== error ? `${error}: ${detail}` : error, code);
  }
}
