// One holder at a time across tabs and the service worker (Web Locks), with an in-process fallback
// where the browser (or Node, in tests) has no navigator.locks.
export type LockRunner = <T>(name: string, fn: () => Promise<T>) => Promise<T>;

const chains = new Map<string, Promise<unknown>>();

/** Serialises callers of one name within this JavaScript context only. */
export const processLock: LockRunner = (name, fn) => {
  const previous = chains.get(name) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(fn);
  chains.set(
    name,
    run.catch(() => undefined),
  );
  return run;
};

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Web Locks when available (shared by every tab and the service worker of the origin). */
export function defaultLock(): LockRunner {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (!locks) return processLock;
  return (name, fn) => locks.request(name, fn);
}
