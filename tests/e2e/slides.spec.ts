// Slide cards (heart, tags 2 then +N, menu rules, archive → Archiving → Archived without a
// viewer link, reactivate with its fee warning) and the filter bar with its state in the URL, online
// and offline (filters run on the local store).
import { expect, test, type Page } from '@playwright/test';
import type { ScanGroup } from '../../src/api/entities';
import { signIn } from './helpers';

async function createSlide(page: Page, fields: Record<string, unknown>): Promise<ScanGroup> {
  const res = await page.request.post('/v2/scan-groups', { data: { scanGroup: fields } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: ScanGroup }).result;
}

const card = (page: Page, id: string) => page.locator(`[data-slide-id="${id}"]`);

async function search(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Search', exact: true });
  await box.fill(text);
  await expect(page).toHaveURL(new RegExp(`textSearch=`));
}

test('slide cards: heart, tags, menu rules, archive and reactivate', async ({ page }) => {
  await signIn(page);
  const stamp = Date.now();
  const slide = await createSlide(page, { name: `Card ${stamp}`, tags: ['alpha', 'beta', 'gamma'] });
  await page.goto('/dashboard/slides');
  await search(page, `Card ${stamp}`);
  const c = card(page, slide.id);
  await expect(c).toBeVisible({ timeout: 20_000 });
  // Tags: two, then +N (§9).
  await expect(c.getByText('alpha')).toBeVisible();
  await expect(c.getByText('beta')).toBeVisible();
  await expect(c.getByText('+1')).toBeVisible();
  await expect(c.getByText('gamma')).toHaveCount(0);
  await expect(c.getByTestId('annotation-count')).toHaveText('✎ 0');

  // Heart: toggles, counts, and reaches the server.
  await c.getByRole('button', { name: 'Add heart' }).click();
  await expect(c.getByTestId('heart-count')).toHaveText('1');
  await expect
    .poll(async () => {
      const r = await page.request.get(`/v2/reactions?reactionType=heart&scanGroupId=${slide.id}`);
      return ((await r.json()) as { count: number }).count;
    })
    .toBe(1);
  await c.getByRole('button', { name: 'Remove heart' }).click();
  await expect(c.getByTestId('heart-count')).toHaveText('0');

  // Menu: a slide without images cannot be downloaded; the rest is allowed for the administrator.
  await c.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Download' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeEnabled();
  await expect(page.getByRole('menuitem', { name: 'Replicate to Study' })).toBeEnabled();
  await expect(page.getByRole('menuitem', { name: 'Print' })).toBeEnabled();
  await expect(page.getByRole('menuitem', { name: 'Remove from Study' })).toHaveCount(0);
  await page.screenshot({ path: '/tmp/h7-shots/slides-menu-desktop.png' });
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await page.getByRole('dialog', { name: 'Archive Slide' }).getByRole('button', { name: 'Archive' }).click();

  // Archive: Archiving at once, then the server's Archived; no viewer link, most actions disabled.
  await expect(c.getByText('Archiving')).toBeVisible();
  await expect(c.getByText('Archived')).toBeVisible({ timeout: 20_000 });
  await expect(c.getByRole('link', { name: `Open slide ${slide.simpleId}` })).toHaveCount(0);
  await c.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: 'Replicate to Study' })).toBeDisabled();
  await page.getByRole('menuitem', { name: 'Reactivate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reactivate Slide' });
  await expect(dialog).toContainText('additional fees');
  await dialog.getByRole('button', { name: 'Reactivate' }).click();
  await expect(c.getByRole('link', { name: `Open slide ${slide.simpleId}` })).toBeVisible({
    timeout: 20_000,
  });
  const after = await page.request.get(`/v2/scan-groups/${slide.id}`);
  expect(((await after.json()) as { result: ScanGroup }).result.archiveAt).toBeNull();
});

test('filter bar: search, pickers, date, sort and archival status live in the URL, also offline', async ({
  page,
}) => {
  await signIn(page);
  const stamp = Date.now();
  const one = await createSlide(page, { name: `Filter ${stamp} one` });
  const two = await createSlide(page, { name: `Filter ${stamp} two` });
  await page.goto('/dashboard/slides');
  await search(page, `Filter ${stamp}`);
  await expect(card(page, one.id)).toBeVisible({ timeout: 20_000 });
  await expect(card(page, two.id)).toBeVisible();
  // Most Recent first by default; Oldest turns it round.
  await expect(page.getByTestId('slide-card').first()).toHaveAttribute('data-slide-id', two.id);
  await page.getByRole('combobox', { name: 'Sort' }).click();
  await page.getByRole('option', { name: 'Oldest' }).click();
  await expect(page).toHaveURL(/sortBy=oldest/);
  await expect(page.getByTestId('slide-card').first()).toHaveAttribute('data-slide-id', one.id);

  // Bookmarkable: a reload keeps the view.
  await search(page, `Filter ${stamp} one`);
  await expect(card(page, two.id)).toHaveCount(0);
  await page.reload();
  await expect(card(page, one.id)).toBeVisible({ timeout: 20_000 });
  await expect(card(page, two.id)).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Search', exact: true })).toHaveValue(`Filter ${stamp} one`);

  // Pickers: search inside, 'No options'; the Slide ID picker narrows the list.
  await page.getByRole('button', { name: /Show Filters/ }).click();
  await page.getByRole('button', { name: /^Organ\b/ }).click();
  await page.getByRole('textbox', { name: 'Search Organ' }).fill('no-such-organ-zz');
  await expect(page.getByText('No options')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Date' }).click();
  await page.getByRole('option', { name: 'Today' }).click();
  await expect(page).toHaveURL(/dateRange=today/);
  await expect(card(page, one.id)).toBeVisible();
  await page.screenshot({ path: '/tmp/h7-shots/slides-filters-desktop.png' });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: '/tmp/h7-shots/slides-filters-tablet.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Archival status: these slides are active.
  await page.getByRole('button', { name: /^Archival Status/ }).click();
  await page.getByRole('checkbox', { name: 'Pending Reactivation' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Results Not Found')).toBeVisible();
  await expect(page).toHaveURL(/scanGroupArchivalStatus=/);

  // Offline: the filters run on the local store.
  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await search(page, `Filter ${stamp} two`);
  await expect(card(page, two.id)).toBeVisible();
  await expect(card(page, one.id)).toHaveCount(0);
  await page.context().setOffline(false);

  // Opening the filter context again starts clean.
  await page.getByRole('tab', { name: 'Studies' }).click();
  await page.getByRole('tab', { name: 'Slides' }).click();
  await expect(page).toHaveURL(/\/dashboard\/slides$/);
  await expect(page.getByRole('textbox', { name: 'Search', exact: true })).toHaveValue('');
});
