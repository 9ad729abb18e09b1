// React's commits counted in the page, for the tests and benches that check a pan renders nothing.

/**
 * Counts React's commits through the hook React DevTools would set (production builds report to it
 * too): a stand-in that only counts, installed before the app's script runs.
 */
export const COUNT_COMMITS = `window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject() { return 1; },
  checkDCE() {},
  onScheduleFiberRoot() {},
  onCommitFiberRoot() { window.__commits = (window.__commits || 0) + 1; },
  onCommitFiberUnmount() {},
  onPostCommitFiberRoot() {},
};`;
