import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  production: boolean;
  /** Pages the app may show in a frame: only the origin of the configured landing-page video. */
  frameSources: string[];
}

/** The origins the app frames, from the configuration (today: the landing page's demo video). */
export const frameSourcesFor = (demoVideoUrl: string | undefined): string[] =>
  demoVideoUrl ? [new URL(demoVideoUrl).origin] : [];

/**
 * The Content-Security-Policy of every response. The built React app needs nothing more: its scripts
 * and styles are files of its own origin, live streams (EventSource) and API calls go to the same
 * origin, and images are its own, `data:` URLs or users' GitHub avatars (https).
 */
export function contentSecurityPolicy({
  production,
  frameSources,
}: SecurityHeaderOptions): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-src': frameSources.length > 0 ? frameSources : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // Over plain http (local mode) an upgrade would break every request to this same server.
    ...(production ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Security headers on every response, API and web app alike; HSTS only in production (HTTPS). */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const { production } = options;
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    frameguard: { action: 'deny' },
    noSniff: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: production ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
    // Cross-origin isolation would block GitHub avatars; nothing here needs SharedArrayBuffer.
    crossOriginEmbedderPolicy: false,
  });
}
