import { brotliCompressSync, gzipSync } from 'node:zlib';
import { buildOpenApiDocument } from '@slipway/contract';
import type { RouteAnswer, RouteHandlers } from '../http/registerRoutes.js';

interface EncodedDocument {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * GET /api/openapi.json: the API as OpenAPI 3.1, generated from the contract's route table. It changes only
 * with the code, so it is built on the first call and kept, with a Brotli and a gzip copy (about 180 kB of
 * JSON, a tenth of that compressed), as the web app's assets are.
 */
export function apiReferenceRoutes() {
  let encoded: EncodedDocument | undefined;
  const documentOnce = (): EncodedDocument => {
    if (!encoded) {
      const identity = Buffer.from(JSON.stringify(buildOpenApiDocument()));
      encoded = { identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) };
    }
    return encoded;
  };

  return {
    openApiDocument: ({ request, reply }) => {
      const document = documentOnce();
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      // The document goes out as the bytes built once (the table's answer, serialised and compressed ahead).
      return reply.send(
        encoding ? document[encoding] : document.identity,
      ) as unknown as RouteAnswer<'openApiDocument'>;
    },
  } satisfies Partial<RouteHandlers>;
}
