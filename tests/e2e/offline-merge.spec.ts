// Merging: edits made offline reach the server as the user left them; two
// clients adding different tags offline both keep theirs (tags travel as add operations).
import { expect, test } from '@playwright/test';
import { cardOf, createStudyOnServer, openStudies, studyOnServer, syncNow } from './offline-helpers';

test('offline: rename a study twice and add a tag; reconnected, the server has the last name and the tag', async ({
  page,
  context,
}) => {
  await openStudies(page);
  const study = await createStudyOnServer(page, `Rename me ${Date.now()}`);
  await syncNow(page);
  const card = cardOf(page, study.id);
  await expect(card).toBeVisible();

  await context.setOffline(true);
  for (const name of ['First new name', 'Second new name']) {
    await card.getByRole('button', { name: 'Rename study' }).click();
    await card.getByRole('textbox', { name: 'Study name' }).fill(name);
    await card.getByRole('textbox', { name: 'Study name' }).press('Enter');
    await expect(card).toContainText(name);
  }
  await card.getByRole('button', { name: 'Add tag' }).click();
  await card.getByRole('textbox', { name: 'New tag' }).fill('urgent');
  await card.getByRole('textbox', { name: 'New tag' }).press('Enter');
  await expect(card).toContainText('urgent');
  await expect(card.getByText('Pending')).toBeVisible();

  await context.setOffline(false);
  await expect(card.getByText('Pending')).toBeHidden({ timeout: 20_000 });
  const after = await studyOnServer(page, study.id);
  expect(after.name).toBe('Second new name');
  expect(after.tags).toEqual(['urgent']);
});

test('two clients add different tags to one study offline; both reconnect: both tags everywhere', async ({
  browser,
}) => {
  const [ctxA, ctxB] = [await browser.newContext(), await browser.newContext()];
  const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
  await openStudies(a);
  await openStudies(b);
  const study = await createStudyOnServer(a, `Two clients ${Date.now()}`);
  for (const page of [a, b]) {
    await syncNow(page);
    await expect(cardOf(page, study.id)).toBeVisible();
  }
  await ctxA.setOffline(true);
  await ctxB.setOffline(true);
  for (const [page, tag] of [
    [a, 'left'],
    [b, 'right'],
  ] as const) {
    const card = cardOf(page, study.id);
    await card.getByRole('button', { name: 'Add tag' }).click();
    await card.getByRole('textbox', { name: 'New tag' }).fill(tag);
    await card.getByRole('textbox', { name: 'New tag' }).press('Enter');
    await expect(card).toContainText(tag);
  }
  await ctxA.setOffline(false);
  await ctxB.setOffline(false);
  for (const page of [a, b])
    await expect(cardOf(page, study.id).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect([...(await studyOnServer(a, study.id)).tags].sort()).toEqual(['left', 'right']);
  for (const page of [a, b]) {
    await syncNow(page);
    await expect(cardOf(page, study.id)).toContainText('left');
    await expect(cardOf(page, study.id)).toContainText('right');
  }
  await ctxA.close();
  await ctxB.close();
});
