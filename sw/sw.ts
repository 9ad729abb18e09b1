// The service worker: precaches the app shell and every page's code so the installed app opens
// offline, answers every page navigation with the shell (the router takes it from there), and replays
// the outbox on Background Sync. API calls are never cached here: /v2 data reaches the app through
// the local store (src/local), which applies the access rules.
/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { localDb } from '../src/local/db';
import { replayOutbox, OUTBOX_SENT_MESSAGE, OUTBOX_SYNC_TAG } from '../src/local/replay';
import { loadSession } from '../src/local/session';
import { fetchTransport } from '../src/local/transport';
import { registerTileCache } from './tiles';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** Background Sync's event (Chromium); not in TypeScript's webworker lib. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

// The shell is public code (no user data), so caching it for everyone is safe.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Navigations get the cached index.html; /v2 (API, uploads, downloads) always goes to the network.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/v2(\/|$)/] }));

// Tiles of slides once seen stay viewable offline (per user; see tiles.ts).
registerTileCache();

self.addEventListener('message', (event) => {
  if (event.data?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// Activation follows a complete precache install, so claiming the open pages is what tells them every
// page's code is on the device (src/app/lib/service-worker.ts: the app is then ready offline).
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/**
 * Replays the signed-in user's outbox with the same code as the page (src/local/replay.ts; the Web
 * Lock keeps the two from sending at once). Cookies carry the tokens; a 401 is left for the page,
 * which alone refreshes tokens (two refreshers would spend the single-use refresh token twice).
 * Throwing makes the browser schedule another attempt, which we want only when the network failed.
 */
async function replayFromWorker(): Promise<void> {
  const db = localDb();
  const session = await loadSession(db);
  if (!session) return; // signed out: entries wait for sign-in
  const result = await replayOutbox(db, {
    transport: fetchTransport(self.fetch.bind(self)),
    userId: session.me.user.id,
  });
  if (result.sent > 0)
    for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true }))
      client.postMessage({ type: OUTBOX_SENT_MESSAGE });
  if (result.stopped === 'offline') throw new Error('The network is still down; the browser will retry.');
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(replayFromWorker());
});
