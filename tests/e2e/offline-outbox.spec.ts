// Outbox, in Chromium against the real server: a study created offline
// survives a reload and reaches the server once; a lost answer does not create a second one; a refused
// entry shows its error and does not block the next one; two tabs send each change exactly once.
import { expect, test } from '@playwright/test';
import {
  cardNamed,
  craftEntry,
  createStudyInUi,
  idbCount,
  openStudies,
  studiesNamed,
} from './offline-helpers';

test('a study created offline is still there after a reload, and reaches the server once', async ({
  page,
  context,
}) => {
  await openStudies(page);
  const name = `Offline study ${Date.now()}`;
  await context.setOffline(true);
  await createStudyInUi(page, name);
  await expect(page.getByText('Study Created')).toBeVisible();
  const card = cardNamed(page, name);
  await expect(card.getByText('Pending')).toBeVisible();

  await page.reload();
  await expect(card.getByText('Pending')).toBeVisible();
  await page.getByRole('button', { name: 'Sync status' }).click();
  await expect(page.getByText('1 change waiting to be sent')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.screenshot({ path: 'test-results/offline-pending.png' });

  await context.setOffline(false);
  await expect(card).toBeVisible();
  await expect(card.getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect(await studiesNamed(page, name)).toHaveLength(1);
  expect(await idbCount(page, 'outbox')).toBe(0);
  await page.getByRole('button', { name: 'Sync status' }).click();
  await expect(page.getByText('All changes are on the server')).toBeVisible();
});

test('the server commits but the answer is lost: after the retry there is still one', async ({ page }) => {
  await openStudies(page);
  const name = `Lost answer ${Date.now()}`;
  let lost = 0;
  await page.route('**/v2/studies', async (route) => {
    if (route.request().method() !== 'POST' || lost > 0) return route.fallback();
    lost++;
    await route.fetch(); // the server handles it…
    await route.abort('connectionreset'); // …and the answer never arrives
  });
  await createStudyInUi(page, name);
  await expect(cardNamed(page, name).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect(lost).toBe(1);
  expect(await studiesNamed(page, name)).toHaveLength(1);
  await expect.poll(() => idbCount(page, 'outbox')).toBe(0);
});

test('a refused entry shows its error and does not block the next one', async ({ page, context }) => {
  await openStudies(page);
  const good = `After the refused one ${Date.now()}`;
  await context.setOffline(true);
  // A crafted entry: the dialog would never send a 101-character name.
  await craftEntry(page, { method: 'POST', path: '/studies', body: { study: { name: 'x'.repeat(101) } } });
  await createStudyInUi(page, good);
  await context.setOffline(false);
  await expect(cardNamed(page, good).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect(await studiesNamed(page, good)).toHaveLength(1);
  await page.getByRole('button', { name: 'Sync status' }).click();
  const failed = page.getByTestId('sync-failed');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('at most 100 characters');
  await page.screenshot({ path: 'test-results/offline-refused.png' });
  // Discarding it empties the outbox; nothing of it was ever shown as a study.
  await failed.getByRole('button', { name: 'Discard' }).click();
  await expect(failed).toHaveCount(0);
  expect(await idbCount(page, 'outbox')).toBe(0);
});

test('two tabs queue changes offline: each reaches the server exactly once', async ({ page, context }) => {
  await openStudies(page);
  const other = await context.newPage();
  await other.goto('/dashboard/studies');
  await expect(other.getByRole('heading', { name: 'Studies' })).toBeVisible();
  const stamp = Date.now();
  const names = [`Tab one ${stamp}`, `Tab two ${stamp}`, `Tab one again ${stamp}`];
  await context.setOffline(true);
  await createStudyInUi(page, names[0]);
  await createStudyInUi(other, names[1]);
  await createStudyInUi(page, names[2]);
  // Each tab shows every queued study (they share the local store).
  for (const tab of [page, other]) for (const name of names) await expect(cardNamed(tab, name)).toBeVisible();
  await context.setOffline(false);
  for (const tab of [page, other])
    for (const name of names)
      await expect(cardNamed(tab, name).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  for (const name of names) expect(await studiesNamed(page, name)).toHaveLength(1);
  expect(await idbCount(page, 'outbox')).toBe(0);
});

test('the service worker sends the outbox on Background Sync, with no tab open', async ({
  page,
  context,
}) => {
  await openStudies(page);
  const name = `Sent by the worker ${Date.now()}`;
  await context.setOffline(true);
  await createStudyInUi(page, name);
  await expect(cardNamed(page, name).getByText('Pending')).toBeVisible();
  await page.close();
  await context.setOffline(false);
  await expect
    .poll(
      async () => {
        const res = await context.request.get(`/v2/studies?name=${encodeURIComponent(name)}&limit=10`);
        return ((await res.json()) as { count: number }).count;
      },
      { timeout: 30_000 },
    )
    .toBe(1);
});
