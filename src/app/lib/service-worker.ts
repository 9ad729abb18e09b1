// Registers the service worker (workbox-window) so the app shell and every page's code are precached
// and the app opens offline, and tells the app whether this device is ready to work offline yet.
// A new version waits until the user reloads, so an open upload or edit is never cut off.
import { useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';

/**
 * 'ready': a service worker controls this page. It took control only after installing its whole
 * precache (the shell and the code of every route: vite.config.ts globs every built script), so any
 * page opens from this device. 'preparing': the first visit, until then. 'unsupported': no service
 * worker (an old browser, the dev server).
 */
export type OfflineReadiness = 'ready' | 'preparing' | 'unsupported';

const SCRIPT = '/sw.js';
let readiness: OfflineReadiness = 'unsupported';
const listeners = new Set<() => void>();

function setReadiness(next: OfflineReadiness): void {
  if (next === readiness) return;
  readiness = next;
  for (const listener of listeners) listener();
}

export function offlineReadiness(): OfflineReadiness {
  return readiness;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useOfflineReadiness(): OfflineReadiness {
  return useSyncExternalStore(subscribe, offlineReadiness);
}

export function registerServiceWorker(): Workbox | undefined {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return undefined;
  const container = navigator.serviceWorker;
  const check = () => setReadiness(container.controller ? 'ready' : 'preparing');
  check();
  // The worker claims open pages once its precache is installed (sw.ts, activate).
  container.addEventListener('controllerchange', check);
  const wb = new Workbox(SCRIPT, { scope: '/' });
  void wb.register().catch(() => undefined);
  // An install cut off by a network drop is dropped by the browser, which would not try again before
  // the next visit: try again as soon as the network is back. While an install is under way the
  // browser answers this with the same registration and starts nothing new.
  window.addEventListener('online', () => {
    if (!container.controller) void container.register(SCRIPT, { scope: '/' }).catch(() => undefined);
  });
  return wb;
}
