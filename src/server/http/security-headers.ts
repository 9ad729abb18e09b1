// Security headers on every response (the app's pages, its assets, the API and the tiles), as
// @fastify/helmet makes them (read once, set on every response): a Content-Security-Policy that allows
// only the app's own scripts, nosniff, a referrer policy, and Strict-Transport-Security on requests
// that arrived over HTTPS.
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
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
  const options: FastifyHelmetOptions = {
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
  };
  const plain = await helmetHeaders(options);
  const overHttps = await helmetHeaders({ ...options, hsts: HSTS });
  // On the raw response, as helmet does, so hijacked replies (uploads, the dev server) carry them too.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of request.protocol === 'https' ? overHttps : plain)
      reply.raw.setHeader(name, value);
    done();
  });
}

/** What Fastify itself writes on the probe's answer, as opposed to helmet. */
const OWN_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers @fastify/helmet sets with these options, read once from a probe instance's answer:
 * they do not depend on the request, and the plugin builds them anew on every request (a few per
 * cent of a tile's CPU, bench/tiles.ts).
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Array<[string, string]>> {
  const probe = Fastify();
  await probe.register(helmet, options);
  probe.get('/', async () => '');
  try {
    const answer = await probe.inject({ method: 'GET', url: '/' });
    return Object.entries(answer.headers)
      .filter(([name]) => !OWN_HEADERS.has(name))
      .map(([name, value]) => [name, String(value)]);
  } finally {
    await probe.close();
  }
}
