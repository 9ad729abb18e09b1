// Offline, a plain link (an <a href> that is not the router's <Link>, e.g. on the error screen or in
// the labels table) would load a new document: on a first visit, before the service worker controls
// the page, that ends on the browser's offline error page. While offline such clicks go through the
// router instead, which opens the page in this document.
const API = /^\/v2(\/|$)/;

export function keepOfflineLinksInApp(navigate: (href: string) => void): void {
  document.addEventListener('click', (event) => {
    if (navigator.onLine || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab or window
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
    if (anchor.target && anchor.target !== '_self') return;
    const url = new URL(anchor.href);
    // Other sites and the API (downloads) are not pages of the app.
    if (url.origin !== window.location.origin || API.test(url.pathname)) return;
    event.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  });
}
