// Tile caching: tiles, DZI descriptors, layers.json, thumbnails and labels of processed images are kept
// once seen, so a slide opened before can be looked at offline. They never change for an image id, so
// the cache answers first. Access: the server only sent them to a user who may read the image, so each
// user gets a cache of their own (named by user id from the remembered session); with no session,
// nothing is served from or kept in a cache, and the caches of signed-out users are deleted.
/// <reference lib="webworker" />
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { loadSession } from '../src/local/session';

declare const self: ServiceWorkerGlobalScope;

const TILE_PATH = /^\/v2\/images\/[0-9a-f-]{36}\/tiles\//;
const PREFIX = 'tessera-tiles-';
const strategies = new Map<string, CacheFirst>();

function strategyFor(userId: string): CacheFirst {
  let s = strategies.get(userId);
  if (!s) {
    s = new CacheFirst({
      cacheName: `${PREFIX}${userId}`,
      plugins: [
        new ExpirationPlugin({ maxEntries: 20_000, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }),
      ],
    });
    strategies.set(userId, s);
  }
  return s;
}

async function forgetOtherUsers(keep: string | undefined): Promise<void> {
  for (const name of await caches.keys())
    if (name.startsWith(PREFIX) && name !== `${PREFIX}${keep}`) await caches.delete(name);
}

export function registerTileCache(): void {
  registerRoute(
    ({ url, request }) =>
      request.method === 'GET' && url.origin === self.location.origin && TILE_PATH.test(url.pathname),
    async (options) => {
      const session = await loadSession().catch(() => undefined);
      const userId = session?.me.user.id;
      void forgetOtherUsers(userId);
      if (!userId) return fetch(options.request);
      return strategyFor(userId).handle(options);
    },
  );
}
