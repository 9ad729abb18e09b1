// Small helpers of the upload engine: the server's message out of a tus error body, and the per-upload
// Web Lock that keeps two tabs from sending the same upload.
import { extractMessage } from '../api/messages';

/** The person-readable message of an error body: the API's JSON `message`, or tus's plain text. */
export function messageOf(body: string | undefined | null): string | null {
  if (!body) return null;
  try {
    return extractMessage(JSON.parse(body));
  } catch {
    return body.trim() || null;
  }
}

/**
 * Takes the lock of one upload if no other tab or worker holds it, and keeps it until the release
 * function stored in `held` is called. Without Web Locks (old browsers) every engine may send.
 */
export function tryLock(id: string, held: Map<string, () => void>): Promise<boolean> {
  if (held.has(id)) return Promise.resolve(true);
  const locks = (globalThis.navigator as (Navigator & { locks?: LockManager }) | undefined)?.locks;
  if (!locks) {
    held.set(id, () => held.delete(id));
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    void locks
      .request(`tessera-upload:${id}`, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(false);
          return undefined;
        }
        return new Promise<void>((release) => {
          held.set(id, () => {
            held.delete(id);
            release();
          });
          resolve(true);
        });
      })
      .catch(() => resolve(false));
  });
}
