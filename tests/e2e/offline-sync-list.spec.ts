// The sync status names what a refused change was: its value and its study ('Tag "urgent" on study
// Kidney 12: A study can have at most 30 tags'), not 'Change study'. A study name over 100 characters
// typed offline is not dropped when Enter is pressed: the editor stays open with the rule's message.
import { expect, test } from '@playwright/test';
import type { Study } from '../../src/api/entities';
import { cardOf, cutServiceWorker, idbCount, openStudies, syncNow } from './offline-helpers';

const TOO_LONG = 'Study name must be at most 100 characters';

test('a refused change names its value and study; a too-long name stays in its editor', async ({
  page,
  context,
}) => {
  await openStudies(page);
  const name = `Kidney 12 ${Date.now()}`;
  const tags = Array.from({ length: 28 }, (_, i) => `t${i}`);
  const res = await page.request.post('/v2/studies', { data: { study: { name, tags } } });
  expect(res.ok()).toBe(true);
  const study = ((await res.json()) as { result: Study }).result;
  await syncNow(page);
  const card = cardOf(page, study.id);
  await expect(card).toBeVisible();

  const worker = await cutServiceWorker(context);
  await context.setOffline(true);
  // Offline: a rename over the limit keeps its editor (and queues nothing) when Enter is pressed.
  await card.getByRole('button', { name: 'Rename study' }).click();
  const editor = card.getByRole('textbox', { name: 'Study name' });
  await editor.fill('n'.repeat(101));
  await editor.press('Enter');
  await expect(editor).toBeVisible();
  await expect(card.getByText(TOO_LONG)).toBeVisible();
  await editor.press('Escape');
  expect(await idbCount(page, 'outbox')).toBe(0);

  // A 29th tag offline, while someone else fills the study to 30 on the server.
  await card.getByRole('button', { name: 'Add tag' }).click();
  await card.getByRole('textbox', { name: 'New tag' }).fill('urgent');
  await card.getByRole('textbox', { name: 'New tag' }).press('Enter');
  await expect(card.getByText('Pending')).toBeVisible();
  const full = await page.request.patch(`/v2/studies/${study.id}`, {
    data: { study: {}, add: { tags: ['t28', 't29'] } },
  });
  expect(full.ok()).toBe(true);
  await worker.restore();
  await context.setOffline(false);

  await page.getByRole('button', { name: 'Sync status' }).click();
  const failed = page.getByTestId('sync-failed');
  await expect(failed).toHaveCount(1, { timeout: 30_000 });
  await expect(failed.getByText(/^Tag/)).toHaveText(
    `Tag "urgent" on study ${name}: A study can have at most 30 tags`,
  );
  await failed.getByRole('button', { name: 'Discard' }).click();
  await expect(failed).toHaveCount(0);
  await page.keyboard.press('Escape');

  // The study page's name editor keeps a too-long name open on Enter as well.
  await card.getByRole('link', { name }).click();
  await page.getByRole('heading', { name }).click();
  const title = page.getByRole('textbox', { name: 'Study name' });
  await title.fill('n'.repeat(101));
  await title.press('Enter');
  await expect(title).toBeVisible();
  await expect(page.getByText(TOO_LONG)).toBeVisible();
});
