// Shared steps of the offline scenarios: open the studies list signed in, with the service
// worker controlling the page; read the outbox and the mirror straight from IndexedDB; ask the server
// what it holds (page.request shares the browser's cookies and ignores setOffline); cut the service
// worker's own requests.
import { expect, type BrowserContext, type Page, type Route } from '@playwright/test';
import type { Study } from '../../src/api/entities';
import { signIn } from './helpers';

export async function openStudies(page: Page): Promise<void> {
  await signIn(page);
  await page.goto('/dashboard/studies');
  await expect(page.getByRole('heading', { name: 'Studies' })).toBeVisible();
  // The shell must be precached and the page controlled, or an offline reload has nothing to show.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
  });
  await waitForFirstSync(page);
}

/** Resolves once the first pull has completed (the sync status shows a time). */
export async function waitForFirstSync(page: Page): Promise<void> {
  await expect.poll(() => idbCount(page, 'meta', 'lastSyncedAt'), { timeout: 20_000 }).toBe(1);
}

/** How many records a store of the local database holds (or whether `key` is in it). */
export function idbCount(page: Page, store: string, key?: string): Promise<number> {
  return page.evaluate(
    ({ store, key }) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(store).objectStore(store).count(key);
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    { store, key },
  );
}

/** Every key of a store (e.g. the mirrored study ids). */
export function idbKeys(page: Page, store: string): Promise<string[]> {
  return page.evaluate(
    (store) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(store).objectStore(store).getAllKeys();
          req.onsuccess = () => {
            resolve(req.result.map(String));
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

/** One record of a store, by key. */
export function idbGet<T>(page: Page, store: string, key: string): Promise<T | undefined> {
  return page.evaluate(
    ({ store, key }) =>
      new Promise<T | undefined>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(store).objectStore(store).get(key);
          req.onsuccess = () => {
            resolve(req.result as T | undefined);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    { store, key },
  );
}

/** Writes an outbox entry by hand, after every other entry: what a crafted or buggy client would. */
export function craftEntry(
  page: Page,
  entry: { method: string; path: string; body?: unknown },
): Promise<string> {
  return page.evaluate(
    (entry) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('tessera');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          const last = store.index('seq').openCursor(null, 'prev');
          const id = crypto.randomUUID();
          last.onsuccess = () => {
            const seq = ((last.result?.value as { seq?: number } | undefined)?.seq ?? 0) + 1;
            store.add({
              ...entry,
              id,
              seq,
              baseVersion: null,
              createdAt: new Date().toISOString(),
              attempts: 0,
              state: 'pending',
              target: `studies:${id}`,
            });
          };
          tx.oncomplete = () => {
            db.close();
            resolve(id);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    entry,
  );
}

export async function studiesNamed(page: Page, name: string): Promise<Study[]> {
  const res = await page.request.get(`/v2/studies?name=${encodeURIComponent(name)}&limit=100`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: Study[] }).result.filter((s) => s.name === name);
}

export async function createStudyOnServer(page: Page, name: string): Promise<Study> {
  const res = await page.request.post('/v2/studies', { data: { study: { name } } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: Study }).result;
}

export async function studyOnServer(page: Page, id: string): Promise<Study> {
  const res = await page.request.get(`/v2/studies/${id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: Study }).result;
}

export const cardNamed = (page: Page, name: string) =>
  page.getByTestId('study-card').filter({ hasText: name });
export const cardOf = (page: Page, id: string) => page.locator(`[data-study-id="${id}"]`);

/** Creates a study through the 'Create New Study' dialog. */
export async function createStudyInUi(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Create New Study' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Study' });
  await expect(dialog.getByRole('button', { name: 'Create', exact: true })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Study name' }).fill(name);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Pulls now instead of waiting for the §9 interval. */
export async function syncNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sync status' }).click();
  await page.getByRole('button', { name: 'Sync now' }).click();
  await page.keyboard.press('Escape');
}

/**
 * Fails every request the service worker makes (its precache, its replay) as a dropped network would,
 * until `restore()`. Failed at once rather than held: a held request stalls `context.setOffline`.
 */
export async function cutServiceWorker(
  context: BrowserContext,
): Promise<{ blocked(): number; restore(): Promise<void> }> {
  let blocked = 0;
  const handler = (route: Route) => {
    if (!route.request().serviceWorker()) return route.fallback();
    blocked += 1;
    return route.abort('internetdisconnected');
  };
  await context.route('**/*', handler);
  return { blocked: () => blocked, restore: () => context.unroute('**/*', handler) };
}
