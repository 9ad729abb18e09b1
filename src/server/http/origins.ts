// The server's own origins: the one put into e-mailed and handed-out links (never taken from a
// request's Host or X-Forwarded-Host alone), and the ones a browser page of this app writes from.
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** The port the server listens on: the bound one once listening, else the configured one. */
function listeningPort(app: FastifyInstance): number {
  const address = app.server.address() as AddressInfo | string | null;
  return address && typeof address === 'object' ? address.port : app.ctx.config.port;
}

/** The address the server was started with, as `npm start` prints it: `http://host:port`. */
export function startedOrigin(config: Pick<Config, 'host'>, port: number): string {
  const host = WILDCARDS.has(config.host) ? 'localhost' : config.host;
  return `http://${net6(host)}:${port}`;
}

const net6 = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * The names this machine answers to: loopback, its host name, the addresses of its interfaces and the
 * configured HOST. A request's Host is used for a link only when it is one of these on the listening
 * port, so a forged Host cannot point a link at another machine or another port.
 */
function ownHostNames(config: Config): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', os.hostname().toLowerCase()]);
  for (const list of Object.values(os.networkInterfaces()))
    for (const info of list ?? []) names.add(net6(info.address.split('%')[0]).toLowerCase());
  if (!WILDCARDS.has(config.host)) names.add(net6(config.host).toLowerCase());
  return names;
}

/** The request's `protocol://host`, parsed; undefined when its Host is not a host. */
function requestOrigin(request: FastifyRequest): URL | undefined {
  try {
    const url = new URL(`${request.protocol}://${request.host}`);
    return url.username || url.password || url.pathname !== '/' ? undefined : url;
  } catch {
    return undefined;
  }
}

/**
 * The origin of links the server hands out (password resets, invitations, downloads): PUBLIC_URL;
 * without it, the request's own origin when its host names this machine on the listening port (a
 * user on the lab network gets links that work for them), else the address the server was started with.
 */
export function linkOrigin(app: FastifyInstance, request: FastifyRequest): string {
  const { config } = app.ctx;
  if (config.publicUrl) return config.publicUrl;
  const port = listeningPort(app);
  const own = requestOrigin(request);
  if (own) {
    const ownPort = Number(own.port || (own.protocol === 'https:' ? 443 : 80));
    if (ownPort === port && ownHostNames(config).has(own.hostname.toLowerCase())) return own.origin;
  }
  return startedOrigin(config, port);
}

/** Whether `origin` (a browser's Origin header) is this app's: PUBLIC_URL's, or the request's own. */
export function isOwnOrigin(app: FastifyInstance, request: FastifyRequest, origin: string): boolean {
  if (origin === app.ctx.config.publicUrl) return true;
  return origin === requestOrigin(request)?.origin;
}
