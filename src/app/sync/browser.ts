// The browser features the sync engine asks for, each optional: Background Sync (so the service
// worker sends the outbox even after the tab is closed) and persistent storage (so the browser does
// not evict the outbox and mirror under storage pressure).
import { OUTBOX_SYNC_TAG } from '../../local/replay';

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

/** Registers the outbox's Background Sync; a no-op where the browser has none (Firefox, Safari). */
export async function requestBackgroundSync(): Promise<void> {
  if (!('serviceWorker' in navigator) || !navigator.serviceWorker.controller) return;
  const registration = (await navigator.serviceWorker.ready) as SyncRegistration;
  await registration.sync?.register(OUTBOX_SYNC_TAG);
}

/** Asks once per sign-in that this origin's storage be kept; the answer is the browser's. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted?.()) return true;
  return navigator.storage.persist().catch(() => false);
}
