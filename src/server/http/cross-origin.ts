// Refuses writes a browser sends on behalf of another site's page. The browser attaches the session
// cookies to a form or fetch aimed at this server from any page of the same site (another port of the
// same host included, SameSite does not tell ports apart), so a write that does not carry a bearer
// token must show it comes from this app: Sec-Fetch-Site, or else Origin, says so.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from './errors';
import { isOwnOrigin } from './origins';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a write may proceed. Allowed: reads; calls with `Authorization: Bearer` (a page of another
 * origin cannot add that header without a CORS preflight, which this server never grants); requests
 * the browser marks `Sec-Fetch-Site: same-origin` (or `none`, typed by the user); without that
 * header, an Origin that is the app's own; and requests with neither header, which browsers do not
 * send for a write from another origin, so they come from a program holding the cookie itself.
 */
export function isAllowedWrite(app: FastifyInstance, request: FastifyRequest): boolean {
  if (READS.has(request.method)) return true;
  if (request.headers.authorization?.startsWith('Bearer ')) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return isOwnOrigin(app, request, origin);
}

export function installCrossOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!isAllowedWrite(app, request)) throw apiError('CROSS_ORIGIN');
  });
}
