import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** One answer as a client sees it; a stream's body is left unread (it is closed once its headers came). */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Requests over a real socket to an app listening on loopback: the path goes on the wire exactly as given
 * (bad percent-encoding included), and a Server-Sent Events answer is closed after its headers instead of
 * being waited for, as `inject` would.
 */
export async function rawHttpClient(app: FastifyInstance) {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  return {
    port,
    request(
      method: string,
      path: string,
      headers: Record<string, string>,
      payload: Buffer | undefined,
    ): Promise<RawAnswer> {
      return new Promise((resolve, reject) => {
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            agent,
            // Node frames a DELETE's body only with a length: without it the body would read as the next request.
            headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
          },
          (response) => {
            const status = response.statusCode ?? 0;
            if (String(response.headers['content-type']).startsWith('text/event-stream')) {
              response.destroy();
              resolve({ status, headers: response.headers, body: '' });
              return;
            }
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
            );
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
