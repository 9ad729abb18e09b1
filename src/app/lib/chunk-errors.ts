// A page's code that could not be fetched. Each route's code is its own file, loaded when the page is
// first opened; on a first visit, before the service worker holds every file (service-worker.ts), a
// network drop makes that load fail. The router answers such a failure with a full reload (meant for
// a new version of the app on the server), which offline ends on the browser's own error page.
// Offline we keep the tab in the app instead: the failure reaches the route's error component
// (shell/RouteError.tsx), which says the page is not available offline yet.

/** How Chromium, Firefox and Safari word a failed dynamic import (the router checks the same). */
const IMPORT_FAILED = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
];
/** Vite's words for a page's stylesheet that could not be loaded. */
const CSS_FAILED = 'Unable to preload CSS';

/** Whether `error` is a failed load of a script of the app (the router reloads for these). */
function isImportError(error: unknown): error is Error {
  return error instanceof Error && IMPORT_FAILED.some((start) => error.message.startsWith(start));
}

/** Whether `error` is a failed load of a piece of the app's code or style. */
export function isChunkLoadError(error: unknown): boolean {
  return isImportError(error) || (error instanceof Error && error.message.startsWith(CSS_FAILED));
}

/**
 * Listens for Vite's `vite:preloadError`, fired for every failed load of a route's code before the
 * error reaches the router. Offline, the router's one reload per failed file is marked as done (its
 * own sessionStorage key, `tanstack_router_reload:<message>`), so the error is thrown to the route's
 * error component instead. Online the router reloads as usual: a new version of the app is the
 * likely cause, and the reload fetches it.
 */
export function keepChunkErrorsInApp(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    if (navigator.onLine || !isImportError(error)) return;
    try {
      sessionStorage.setItem(`tanstack_router_reload:${error.message}`, '1');
    } catch {
      // No sessionStorage (private mode limits): the router then cannot reload either.
    }
  });
}
