// Registers the service worker (workbox-window) so the app shell is precached and opens offline.
// A new version waits until the user reloads, so an open upload or edit is never cut off.
import { Workbox } from 'workbox-window';

export function registerServiceWorker(): Workbox | undefined {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return undefined;
  const wb = new Workbox('/sw.js', { scope: '/' });
  void wb.register();
  return wb;
}
