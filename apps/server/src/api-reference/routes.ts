import { brotliCompressSync, gzipSync } from 'node:zlib';
import { buildOpenApiDocument } from '@slipway/contract';
import type { FastifyInstance } from 'fastify';

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
export function apiReferenceRoutes(app: FastifyInstance) {
  let encoded: EncodedDocument | undefined;
  const documentOnce = (): EncodedDocument => {
    if (!encoded) {
      const identity = Buffer.from(JSON.stringify(buildOpenApiDocument()));
      encoded = { identity, br: brotliCompressSync(identity), gzip: gzipSync(identity) };
    }
    return encoded;
  };

  app.get('/api/openapi.json', async (request, reply) => {
    const document = documentOnce();
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
    if (!encoding) return reply.send(document.identity);
    return reply.header('content-encoding', encoding).send(document[encoding]);
  });
}
