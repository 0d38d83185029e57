import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Pages others may show inside the app (none today). A landing-page video (issue 17) is added here,
 * e.g. 'https://www.youtube-nocookie.com', and nowhere else.
 */
export const FRAME_SOURCES: string[] = [];

/**
 * The Content-Security-Policy of every response. The built React app needs nothing more: its scripts
 * and styles are files of its own origin, live streams (EventSource) and API calls go to the same
 * origin, and images are its own, `data:` URLs or users' GitHub avatars (https).
 */
export function contentSecurityPolicy(production: boolean): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-src': FRAME_SOURCES.length > 0 ? FRAME_SOURCES : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // Over plain http (local mode) an upgrade would break every request to this same server.
    ...(production ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Security headers on every response, API and web app alike; HSTS only in production (HTTPS). */
export async function registerSecurityHeaders(app: FastifyInstance, production: boolean) {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(production) },
    frameguard: { action: 'deny' },
    noSniff: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: production ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
    // Cross-origin isolation would block GitHub avatars; nothing here needs SharedArrayBuffer.
    crossOriginEmbedderPolicy: false,
  });
}
