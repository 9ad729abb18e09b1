// Security headers on every response (the app's pages, its assets, the API and the tiles), through
// @fastify/helmet: a Content-Security-Policy that allows only the app's own scripts, nosniff, a
// referrer policy, and Strict-Transport-Security on requests that arrived over HTTPS.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

const GOOGLE_GSI = 'https://accounts.google.com/gsi/';
const HSTS = { maxAge: 31_536_000, includeSubDomains: false };

/**
 * The policy of the built app. Scripts and workers are the app's own files (no inline script:
 * index.html has none); styles allow inline because Mantine writes its theme variables into a
 * <style> element at run time, and a nonce cannot live in a shell the service worker serves offline.
 * Images take blob: and data: (the viewer's canvases, thumbnails and downloads). Google's sign-in
 * script and frame are added only when Google sign-in is configured.
 */
export function cspDirectives(config: Pick<Config, 'googleClientId'>): Record<string, string[]> {
  const google = config.googleClientId ? [GOOGLE_GSI] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...google.map((g) => `${g}client`)],
    'style-src': ["'self'", "'unsafe-inline'", ...google.map((g) => `${g}style`)],
    'img-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...google],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-src': google.length ? google : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

export async function installSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  opts: { dev?: boolean },
): Promise<void> {
  await app.register(helmet, {
    // Vite's dev server injects inline scripts (its client and React refresh): no policy under npm run dev.
    contentSecurityPolicy: opts.dev ? false : { useDefaults: false, directives: cspDirectives(config) },
    // Google's sign-in opens a popup that reports back to this window.
    crossOriginOpenerPolicy: { policy: config.googleClientId ? 'same-origin-allow-popups' : 'same-origin' },
    // Links carry tokens in their query (reset, activation): no address leaves the app in a Referer.
    // Google's sign-in checks the page's origin, so with it the origin (never the path) is sent.
    referrerPolicy: { policy: config.googleClientId ? 'strict-origin-when-cross-origin' : 'same-origin' },
    // Only a response that arrived over HTTPS says so (below): a browser reaching the server over
    // plain HTTP on the lab network must not be told to insist on HTTPS.
    hsts: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.helmet({ hsts: HSTS });
  });
}
