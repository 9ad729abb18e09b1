// Closing the browser at ~40% and opening it again: the same persistent profile
// resumes the upload by itself — the file comes from the origin's storage, not a new pick — into the
// same tus resource, and the stored file is byte-identical. Where the browser keeps no copy, the row
// asks for the same file again and a different file is refused by its fingerprint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type BrowserContext } from '@playwright/test';
import { UploadOwnText } from '../../src/api/uploads';
import { signIn } from './helpers';
import {
  localRecords,
  openUploader,
  progressOf,
  randomFile,
  removeRandomFiles,
  rowOf,
  serverGroup,
  sha256File,
  slowPatches,
  storedPath,
} from './uploads-helpers';

test.afterAll(() => removeRandomFiles());

/**
 * How long each PATCH is held: the browser is closed while one is held. The chunk after the first
 * takes the rest of these files at once, and the server writes it in a fraction of a second, so a
 * shorter hold left too little time to close the browser before the upload was complete.
 */
const HOLD_MS = 2500;

const launch = (dir: string): Promise<BrowserContext> =>
  chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    baseURL: test.info().project.use.baseURL,
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

test('closing the browser at ~40%: reopening resumes without re-picking, in the same tus resource', async () => {
  test.setTimeout(180_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-profile-'));
  const file = randomFile('restart.qptiff', 80 * 1024 * 1024);
  let context = await launch(profile);
  await slowPatches(context, HOLD_MS);
  let page = context.pages()[0] ?? (await context.newPage());
  await signIn(page);
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(file);
  const row = rowOf(dialog, 'restart.qptiff');
  const id = (await row.getAttribute('data-upload-id'))!;
  await expect
    .poll(async () => (await localRecords(page))[0]?.parts[0]?.kept, { timeout: 30_000 })
    .toBe('opfs');
  await expect.poll(() => progressOf(row), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(0.4);
  const tusUrl = (await localRecords(page))[0].parts[0].tusUrl;
  expect(tusUrl).toMatch(/^\/v2\/uploads\/[0-9a-f]{32}$/);
  await context.close();

  context = await launch(profile);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/all-recent-uploads');
  const again = rowOf(page, 'restart.qptiff');
  await expect(again.getByTestId('upload-status')).not.toHaveText(
    /Upload in Progress|Queued For Upload|Starting/,
    {
      timeout: 90_000,
    },
  );
  const group = await serverGroup(page, id);
  expect(group.parts.map((p) => `/v2/uploads/${p.id}`)).toEqual([tusUrl]);
  expect(sha256File(storedPath(group.image!.id, 'restart.qptiff'))).toBe(sha256File(file));
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
});

test('where the browser keeps no copy, the row asks for the same file and checks it', async () => {
  test.setTimeout(180_000);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-profile-'));
  const file = randomFile('repick.czi', 48 * 1024 * 1024);
  const other = randomFile('repick.czi', 48 * 1024 * 1024);
  let context = await launch(profile);
  await slowPatches(context, HOLD_MS);
  let page = context.pages()[0] ?? (await context.newPage());
  await signIn(page);
  await page.evaluate(() => localStorage.setItem('tessera.uploads.keepFiles', 'off'));
  await page.reload();
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(file);
  const row = rowOf(dialog, 'repick.czi');
  const id = (await row.getAttribute('data-upload-id'))!;
  await expect.poll(() => progressOf(row), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(0.2);
  await context.close();

  context = await launch(profile);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/all-recent-uploads');
  const again = rowOf(page, 'repick.czi');
  await expect(again.getByTestId('upload-detail')).toHaveText(UploadOwnText.fileNotKept, { timeout: 30_000 });
  await again.getByTestId('repick-input').setInputFiles(other);
  await expect(again.getByText(UploadOwnText.wrongFile)).toBeVisible();
  await again.getByTestId('repick-input').setInputFiles(file);
  await expect(again.getByTestId('upload-status')).not.toHaveText(/Upload in Progress|Queued For Upload/, {
    timeout: 90_000,
  });
  const group = await serverGroup(page, id);
  expect(group.parts).toHaveLength(1);
  expect(sha256File(storedPath(group.image!.id, 'repick.czi'))).toBe(sha256File(file));
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
});
