import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@slipway/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { DomainError, type ErrorCode } from '../domain/errors.js';
import { inputSentences, isZodDefault } from './inputSentences.js';
import { JSON_TOO_DEEP, MAX_JSON_DEPTH } from './jsonBody.js';

const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_request', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_request', message: 'The request body is empty' },
  [JSON_TOO_DEEP]: {
    code: 'invalid_request',
    message: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the request body as JSON',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_request',
    message: 'The request body length is wrong',
  },
};

export function body(
  code: ErrorCode,
  error: string,
  extra: { detail?: string; redirect?: string } = {},
): ErrorBody {
  return {
    error,
    code,
    detail: extra.detail ?? error,
    ...(extra.redirect ? { redirect: extra.redirect } : {}),
  };
}

/**
 * A refused input's first issue in words: the contract's own message (the spec's texts; every route's input is
 * parsed with inputSentences.ts, so its issues all have one), or, for a schema a service parsed itself with
 * zod's default words, the same sentence inputSentences gives a body field.
 */
function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid';
  return isZodDefault(issue.message) ? inputSentences('body')(issue) : issue.message;
}

/** The longest path parameter the router takes (Fastify's `maxParamLength`); the contract's limits are lower. */
export const MAX_PARAM_LENGTH = 8 * 1024;

/**
 * Fastify's `frameworkErrors`: the refusals its router makes before any route or hook runs — a path whose
 * percent-encoding is not UTF-8, a parameter past MAX_PARAM_LENGTH — in the error body of every other answer.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply
      .status(400)
      .send(
        body(
          'invalid_request',
          'The address is not valid: a "%" in it must start the percent-encoding of UTF-8 text (as %C3%A9 for é)',
        ),
      );
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply
      .status(414)
      .send(
        body('uri_too_long', `A part of the address is too long (at most ${MAX_PARAM_LENGTH} characters)`),
      );
  }
  request.log.error({ err: error }, 'the router failed');
  return reply.status(500).send(body('internal', 'Something went wrong on our side. Please try again.'));
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses before Fastify sees it (headers past
 * Node's 16 KiB, a malformed request line, a client too slow to send its headers) is answered in the error
 * body too, and its connection closed as Node would.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The address and headers of the request are too large (at most 16 KiB)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request took too long to arrive']
        : [400, 'invalid_request', 'The request is not valid HTTP'];
  const json = JSON.stringify(body(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError | ZodError, request, reply) => {
    if (error instanceof DomainError) {
      if (error.extra.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.extra.retryAfterSeconds));
      if (error.extra.headers) reply.headers(error.extra.headers);
      return reply
        .status(error.status)
        .send({ ...body(error.code, error.message, error.extra), ...error.extra.data });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send(body('invalid_request', zodMessage(error)));
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) return reply.status(error.statusCode ?? 400).send(body(known.code, known.message));
    if (error.statusCode === 429) {
      return reply.status(429).send(body('rate_limited', 'Too many requests. Wait a minute and try again.'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send(body('invalid_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body('internal', 'Something went wrong on our side. Please try again.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The path as sent (still percent-encoded), cut short: a 5,000-character one is not worth repeating.
    const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
    reply.status(404).send(body('not_found', `No such endpoint: ${request.method} ${shown}`));
  });
}
