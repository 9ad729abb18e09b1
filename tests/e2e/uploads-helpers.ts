// Shared steps of the upload scenarios: open the uploader, pick files, follow a row, slow the
// PATCH requests down (so "at ~30%" can be caught on loopback), and ask the server what it stored.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import type { UploadGroup } from '../../src/api/uploads';

export const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures');
export const dataDir = () => process.env.E2E_DATA_DIR!;

export async function openUploader(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Upload Images' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Images' });
  await expect(dialog.getByText('Drop slide files here')).toBeVisible();
  return dialog;
}

export const rowOf = (scope: Page | Locator, name: string) =>
  scope.locator(`[data-testid="upload-row"][aria-label="Upload ${name}"]`).first();

export async function progressOf(row: Locator): Promise<number> {
  return Number((await row.getAttribute('data-progress')) ?? 0);
}

/** Holds every PATCH for `ms` before it goes out: loopback becomes slow enough to act mid-upload. */
export async function slowPatches(context: BrowserContext, ms: number): Promise<void> {
  await context.route('**/v2/uploads/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, ms));
    await route.continue().catch(() => undefined);
  });
}

/** A file of random bytes with a slide's extension (the server checks names and sizes, not contents). */
const madeDirs: string[] = [];
/** Deletes the files randomFile made (call from afterAll). */
export function removeRandomFiles(): void {
  for (const d of madeDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export function randomFile(name: string, bytes: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-upload-'));
  madeDirs.push(dir);
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  const block = crypto.randomBytes(1024 * 1024);
  for (let written = 0; written < bytes; written += block.length)
    fs.writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  fs.closeSync(fd);
  return file;
}

export const sha256File = (file: string) =>
  crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

export async function serverGroup(page: Page, id: string): Promise<UploadGroup> {
  const res = await page.request.get(`/v2/upload-groups/${id}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: UploadGroup }).result;
}

/** Where the server keeps an image's original (DATA_DIR/files/<storage key>). */
export const storedPath = (imageId: string, ...rest: string[]) =>
  path.join(dataDir(), 'files', 'images', imageId, ...rest);

export const uploadBytesPath = (partId: string) => path.join(dataDir(), 'files', 'uploads', partId);

/** The upload records of this browser, straight from IndexedDB. */
export function localRecords(
  page: Page,
): Promise<Array<{ id: string; status: string; parts: Array<{ kept: string; tusUrl?: string }> }>> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('tessera-uploads');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('records')) {
            db.close();
            resolve([]);
            return;
          }
          const req = db.transaction('records').objectStore('records').getAll();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}
