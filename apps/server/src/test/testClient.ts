import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { checkAnswerAgainstContract } from './contractCheck.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A browser-like client over `app.inject`: it keeps cookies and echoes the XSRF-TOKEN cookie in the
 * X-XSRF-TOKEN header, as axios does in the web app. Every JSON answer of a route in the contract's
 * route table is parsed with the contract's schema for its status: a mismatch throws a ContractViolation.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  sendXsrf = true;

  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const cookieHeader = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(this.sendXsrf && xsrf ? { 'x-xsrf-token': xsrf } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    checkAnswerAgainstContract(method, url, response);
    return response;
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body ?? {});
  put = (url: string, body?: unknown) => this.request('PUT', url, body ?? {});
  delete = (url: string) => this.request('DELETE', url);

  /** Local mode sign-in: 'operator' is whitelisted, 'waiting' is not. Primes the XSRF cookie. */
  async signIn(as: 'operator' | 'waiting' = 'operator'): Promise<this> {
    const response = await this.get(`/api/auth/github/install?as=${as}`);
    if (response.statusCode !== 302)
      throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    await this.get('/api/user');
    return this;
  }
}
