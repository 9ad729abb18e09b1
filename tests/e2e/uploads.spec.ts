// Uploads end to end: each fixture format through the uploader to a stored,
// byte-identical file and its processing outcome; offline at ~30% and back (one chunk resent at
// most); cancel frees the server's bytes; a refused file says 'Incompatible File Format'.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { UploadText } from '../../src/api/messages';
import { CHUNK_MAX_BYTES, UploadOwnText } from '../../src/api/uploads';
import { signIn } from './helpers';
import {
  FIXTURES,
  openUploader,
  progressOf,
  randomFile,
  removeRandomFiles,
  rowOf,
  serverGroup,
  sha256File,
  slowPatches,
  storedPath,
  uploadBytesPath,
} from './uploads-helpers';

test.beforeEach(async ({ page }) => signIn(page));
test.afterAll(() => removeRandomFiles());

test('uploads each fixture format; the stored files are byte-identical and get processed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dialog = await openUploader(page);
  await dialog
    .getByTestId('upload-file-input')
    .setInputFiles([
      path.join(FIXTURES, 'qptiff/brightfield.qptiff'),
      path.join(FIXTURES, 'czi/DAPI_GFP.czi'),
    ]);
  await dialog.getByTestId('upload-folder-input').setInputFiles(path.join(FIXTURES, 'mrxs'));

  const qptiff = rowOf(dialog, 'brightfield.qptiff');
  const czi = rowOf(dialog, 'DAPI_GFP.czi');
  const mrxs = rowOf(dialog, 'slide.mrxs');
  // The brightfield label's barcode names a seeded slide: the upload ends linked, with Open Image.
  await expect(qptiff.getByTestId('upload-status')).toHaveText('Upload Complete', { timeout: 60_000 });
  const open = qptiff.getByRole('link', { name: 'Open Image' });
  await expect(open).toHaveAttribute('href', /^\/sgviewer\/[0-9a-f-]{36}$/);
  // Its toast says so for 5 s: checked now, before the other rows' waits outlast it on a loaded machine.
  await expect(page.getByText('Upload Success').first()).toBeVisible();
  // The CZI has no label and the MIRAX label names no slide here: both wait for a label.
  for (const row of [czi, mrxs]) {
    await expect(row.getByTestId('upload-status')).toHaveText(UploadText.incomplete, { timeout: 60_000 });
    await expect(row.getByTestId('upload-detail')).toHaveText(UploadText.noLabel);
  }
  // The label repair says which file it is for and what its barcode read (a label naming no slide).
  await mrxs.getByRole('button', { name: 'Enter Slide Label ID' }).click();
  const fix = page.getByRole('dialog', { name: 'Enter Slide Label ID' });
  await expect(fix.getByTestId('repair-target')).toContainText('slide.mrxs');
  await expect(fix.getByTestId('repair-barcode')).toContainText(`${UploadOwnText.barcodeRead}: `);
  await fix.getByRole('button', { name: 'Cancel' }).click();

  for (const [row, files] of [
    [qptiff, ['qptiff/brightfield.qptiff']],
    [czi, ['czi/DAPI_GFP.czi']],
    [mrxs, ['mrxs/slide.mrxs', 'mrxs/slide/Slidedat.ini', 'mrxs/slide/Index.dat', 'mrxs/slide/Data0000.dat']],
  ] as const) {
    const group = await serverGroup(page, (await row.getAttribute('data-upload-id'))!);
    expect(group.status).toBe('complete');
    expect(group.parts).toHaveLength(files.length);
    for (const f of files) {
      const rel = f.split('/').slice(1).join('/');
      expect(sha256File(storedPath(group.image!.id, rel))).toBe(sha256File(path.join(FIXTURES, f)));
    }
  }
  await page.screenshot({ path: 'test-results/uploader.png' });
});

test('refuses other files with Incompatible File Format, before a byte is sent', async ({ page }) => {
  const dialog = await openUploader(page);
  const notes = randomFile('notes.txt', 1000);
  await dialog.getByTestId('upload-file-input').setInputFiles(notes);
  const row = rowOf(dialog, 'notes.txt');
  await expect(row.getByTestId('upload-status')).toHaveText(UploadText.invalidFile);
  await expect(row.getByTestId('upload-detail')).toHaveText(UploadText.incompatibleFormat);
});

test("a file renamed to .czi that is not one ends as Invalid file with the reader's reason", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(randomFile('renamed.czi', 300_000));
  const row = rowOf(dialog, 'renamed.czi');
  await expect(row.getByTestId('upload-status')).toHaveText(UploadText.invalidFile, { timeout: 60_000 });
  await expect(row.getByTestId('upload-detail')).not.toBeEmpty();
  await expect(row.getByTestId('upload-detail')).not.toHaveText(UploadText.incompatibleFormat);
});

test('goes offline at ~30% and back: resumes from the server offset, one chunk resent at most', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const file = randomFile('offline.czi', 96 * 1024 * 1024);
  await slowPatches(context, 700);
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(file);
  const row = rowOf(dialog, 'offline.czi');
  await expect.poll(() => progressOf(row), { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(0.3);
  await context.setOffline(true);
  const before = await progressOf(row);
  await page.waitForTimeout(2500);
  expect(await progressOf(row)).toBeLessThan(0.95);
  expect(await progressOf(row)).toBeLessThanOrEqual(before + 0.35);
  await context.setOffline(false);
  await expect(row.getByTestId('upload-status')).not.toHaveText(/Upload in Progress|Queued For Upload/, {
    timeout: 90_000,
  });
  const id = (await row.getAttribute('data-upload-id'))!;
  const group = await serverGroup(page, id);
  expect(group.parts).toHaveLength(1);
  expect(sha256File(storedPath(group.image!.id, 'offline.czi'))).toBe(sha256File(file));
  const sent = Number(await row.getAttribute('data-sent'));
  expect(sent - fs.statSync(file).size).toBeLessThanOrEqual(CHUNK_MAX_BYTES);
});

test('cancel asks first, then stops the upload and frees the server bytes', async ({ page, context }) => {
  test.setTimeout(180_000);
  const file = randomFile('cancel.qptiff', 64 * 1024 * 1024);
  await slowPatches(context, 1500);
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(file);
  const row = rowOf(dialog, 'cancel.qptiff');
  await expect(row.getByTestId('upload-status')).toHaveText('Upload in Progress', { timeout: 30_000 });
  const id = (await row.getAttribute('data-upload-id'))!;

  // The leave-page warning is on while bytes are still to send (§2.6).
  const warned = new Promise<string>((resolve) =>
    page.once('dialog', async (d) => {
      resolve(d.type());
      await d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await warned).toBe('beforeunload');
  expect(page.isClosed()).toBe(false);

  await row.getByRole('button', { name: 'Cancel upload' }).click();
  const confirm = page.getByRole('dialog', { name: UploadText.cancelTitle });
  await expect(confirm.getByText('the images will not appear in the product')).toBeVisible();
  await confirm.getByRole('button', { name: 'Continue Upload' }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByTestId('upload-status')).toHaveText('Upload in Progress');

  const [part] = (await serverGroup(page, id)).parts;
  await row.getByRole('button', { name: 'Cancel upload' }).click();
  await page
    .getByRole('dialog', { name: UploadText.cancelTitle })
    .getByRole('button', { name: 'Cancel Upload' })
    .click();
  await expect(row.getByTestId('upload-status')).toHaveText(UploadText.canceled);
  expect((await serverGroup(page, id)).status).toBe('canceled');
  await expect.poll(() => fs.existsSync(uploadBytesPath(part.id))).toBe(false);
});
