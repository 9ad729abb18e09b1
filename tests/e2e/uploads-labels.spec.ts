// Label repair from the uploader (§2.3, §4.3, §5): an upload whose label names no slide shows
// 'Upload Incomplete' / 'No Label Associated'; 'Enter Slide Label ID' names the file, lists the slides
// whose ID starts with what is typed and applies the chosen one's label; 'Create Slide Label ID' makes
// a slide (animal first, then organ), applies its label and shows the new ID. Both end in 'Upload
// Complete' with the Open Image link; the finished row then leaves the collapsed bar's count and can
// be cleared.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Misc, UploadText } from '../../src/api/messages';
import { UploadOwnText } from '../../src/api/uploads';
import { signIn } from './helpers';
import { FIXTURES, openUploader, rowOf } from './uploads-helpers';

test.beforeEach(async ({ page }) => signIn(page));

async function uploadUnlabelled(page: Page, fixture: string) {
  const dialog = await openUploader(page);
  await dialog.getByTestId('upload-file-input').setInputFiles(path.join(FIXTURES, fixture));
  const row = rowOf(dialog, path.basename(fixture));
  await expect(row.getByTestId('upload-status')).toHaveText(UploadText.incomplete, { timeout: 60_000 });
  await expect(row.getByTestId('upload-detail')).toHaveText(UploadText.noLabel);
  return row;
}

test('Enter Slide Label ID applies a slide found by its simpleId', async ({ page }) => {
  test.setTimeout(120_000);
  const created = await page.request.post('/v2/scan-groups', { data: { scanGroup: { notes: 'for a fix' } } });
  expect(created.status()).toBe(200);
  const slide = (await created.json()).result as { id: string; simpleId: string };

  const row = await uploadUnlabelled(page, 'czi/RGB-8bit.czi');
  await row.getByRole('button', { name: 'Enter Slide Label ID' }).click();
  await expect(page).toHaveURL(/[?&]fixUpload=/);
  const modal = page.getByRole('dialog', { name: 'Enter Slide Label ID' });
  await expect(modal.getByTestId('repair-target')).toContainText(`${UploadOwnText.forFile}: RGB-8bit.czi`);
  await expect(modal.getByTestId('repair-barcode')).toHaveText(UploadOwnText.barcodeNone);
  const input = modal.getByLabel('Slide Label ID');
  await expect(input).toHaveAttribute('maxlength', '100');
  const submit = modal.getByRole('button', { name: 'Submit' });
  await input.fill('ZZZZZZZZ');
  await expect(modal.getByText(Misc.resultsNotFound)).toBeVisible();
  await expect(submit).toBeDisabled();
  // The beginning of the ID, typed in lower case, lists the slide to choose.
  await input.fill(slide.simpleId.slice(0, 5).toLowerCase());
  await modal.getByRole('radio', { name: `Slide ${slide.simpleId}` }).check();
  await submit.click();
  await expect(modal).toBeHidden();
  await expect(page).not.toHaveURL(/fixUpload/);
  await expect(row.getByTestId('upload-status')).toHaveText('Upload Complete', { timeout: 20_000 });
  await expect(row.getByRole('link', { name: 'Open Image' })).toHaveAttribute(
    'href',
    `/sgviewer/${slide.id}`,
  );
  // Finished rows are not counted as under way, and can be cleared.
  await page.getByRole('button', { name: 'Collapse' }).click();
  await expect(page.getByTestId('uploads-in-flight')).toHaveText(UploadOwnText.inFlight(0));
  await page.getByRole('button', { name: 'Expand' }).click();
  await row.getByRole('button', { name: 'Clear RGB-8bit.czi' }).click();
  await expect(row).toHaveCount(0);
});

test('Create Slide Label ID: animal first, then organ, then the new label is applied', async ({ page }) => {
  test.setTimeout(120_000);
  const organ = await page.request.post('/v2/organs', {
    data: { organ: { name: 'Kidney', animal: 'Mouse' } },
  });
  expect([200, 409]).toContain(organ.status());

  const row = await uploadUnlabelled(page, 'czi/newCZI_compressed.czi');
  await row.getByRole('button', { name: 'Create Slide Label ID' }).click();
  await expect(page).toHaveURL(/[?&]fixCreateUpload=/);
  const modal = page.getByRole('dialog', { name: 'Create Slide Label ID' });
  const organPicker = modal.getByRole('combobox', { name: 'Organ' });
  await expect(organPicker).toBeDisabled();
  await expect(organPicker).toHaveAttribute('placeholder', Misc.selectAnimalFirst);
  const submit = modal.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();

  await modal.getByRole('combobox', { name: 'Animal' }).click();
  await page.getByRole('option', { name: 'Mouse' }).click();
  await expect(organPicker).toBeEnabled();
  await organPicker.click();
  await page.getByRole('option', { name: 'Kidney' }).click();
  await modal.getByLabel('Notes').fill('Made while fixing an upload');
  await expect(submit).toBeEnabled();
  await submit.click();
  const createdText = modal.getByTestId('label-created');
  await expect(createdText).toContainText('applied to newCZI_compressed.czi');
  const simpleId = /ID (\S+) was created/.exec((await createdText.textContent()) ?? '')?.[1];
  await modal.getByRole('button', { name: 'Done' }).click();
  await expect(modal).toBeHidden();
  await expect(row.getByTestId('upload-status')).toHaveText('Upload Complete', { timeout: 20_000 });
  const href = await row.getByRole('link', { name: 'Open Image' }).getAttribute('href');
  const slideId = href!.split('/').pop();
  const slide = await page.request.get(`/v2/scan-groups/${slideId}`);
  expect((await slide.json()).result).toMatchObject({
    simpleId,
    animal: 'Mouse',
    notes: 'Made while fixing an upload',
  });
});
