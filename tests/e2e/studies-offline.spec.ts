// Offline against the local store — renaming, tagging, sharing, replicating and a
// heart queue in the outbox and show as Pending; back online they reach the server.
import { expect, test, type Page } from '@playwright/test';
import type { ScanGroup } from '../../src/api/entities';
import {
  cardNamed,
  createStudyOnServer,
  idbCount,
  openStudies,
  studyOnServer,
  syncNow,
} from './offline-helpers';

async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { data });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { result: T }).result;
}

test('offline: rename, tag, share, replicate and heart are Pending, then synced', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudies(page);
  const stamp = Date.now();
  const me = (await (await page.request.get('/v2/auth/me')).json()) as { organization: { id: string } };
  const team = await post<{ id: string }>(page, '/v2/organizations', {
    organization: { name: `Offline team ${stamp}`, parentId: me.organization.id },
  });
  const slide = await post<ScanGroup>(page, '/v2/scan-groups', { scanGroup: { name: `Offline ${stamp}` } });
  const study = await createStudyOnServer(page, `Offline ${stamp}`);
  await syncNow(page);
  // Everything the offline steps need is in the local store before the network goes.
  await expect.poll(() => idbCount(page, 'organizations', team.id), { timeout: 20_000 }).toBe(1);
  await expect.poll(() => idbCount(page, 'scanGroups', slide.id), { timeout: 20_000 }).toBe(1);
  await cardNamed(page, study.name).getByRole('link', { name: study.name }).click();
  await expect(page.getByRole('heading', { name: study.name })).toBeVisible();

  await page.context().setOffline(true);
  await expect(page.getByRole('button', { name: 'Sync status' })).toContainText('Offline');
  const renamed = `${study.name} renamed`;
  await page.getByRole('heading', { name: study.name }).click();
  await page.getByRole('textbox', { name: 'Study name' }).fill(renamed);
  await page.getByRole('textbox', { name: 'Study name' }).press('Enter');
  await expect(page.getByRole('heading', { name: renamed })).toBeVisible();
  await expect(page.getByText('Pending').first()).toBeVisible();

  const tags = page.getByTestId('tags-card');
  await tags.getByRole('button', { name: 'Add tag' }).click();
  await tags.getByRole('textbox', { name: 'New tag' }).fill('offline');
  await tags.getByRole('textbox', { name: 'New tag' }).press('Enter');
  await expect(tags.getByText('offline')).toBeVisible();

  await page.getByRole('button', { name: `Study menu ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: `Share study ${renamed}` });
  await share.getByRole('button', { name: 'Add', exact: true }).click();
  await share.getByRole('combobox', { name: 'Organizations' }).click();
  await page.getByRole('option', { name: `Offline team ${stamp}` }).click();
  await share.getByRole('heading').click();
  await share.getByRole('button', { name: 'Share' }).click();
  await expect(share.getByTestId('share-organizations')).toContainText(`Offline team ${stamp}`);
  await share.getByRole('button', { name: 'Close' }).click();

  // Replicate and a heart, from the slides tab (client-side navigation works offline).
  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await page.getByRole('tab', { name: 'Slides' }).click();
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(`Offline ${stamp}`);
  await expect(page).toHaveURL(/textSearch=/);
  const card = page.locator(`[data-slide-id="${slide.id}"]`);
  await expect(page.getByTestId('slide-card')).toHaveCount(1);
  await card.getByRole('button', { name: `Slide menu ${slide.simpleId}` }).click();
  await page.getByRole('menuitem', { name: 'Replicate to Study' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replicate to Study' });
  await dialog.getByRole('combobox', { name: 'Study' }).fill(renamed);
  await page.getByRole('option', { name: renamed }).click();
  await dialog.getByRole('button', { name: 'Replicate' }).click();
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: 'Add heart' }).click();
  await expect(card.getByText('Pending')).toBeVisible();
  await page.screenshot({ path: '/tmp/h7-shots/offline-pending-desktop.png' });

  // Nothing reached the server yet.
  expect((await studyOnServer(page, study.id)).name).toBe(study.name);

  await page.context().setOffline(false);
  await expect
    .poll(
      async () => {
        const s = await studyOnServer(page, study.id);
        return [s.name, s.tags, s.assigneeOrgIds.includes(team.id), s.scanGroupIds.includes(slide.id)];
      },
      { timeout: 30_000 },
    )
    .toEqual([renamed, ['offline'], true, true]);
  await expect
    .poll(async () => {
      const r = await page.request.get(`/v2/reactions?reactionType=heart&scanGroupId=${slide.id}`);
      return ((await r.json()) as { count: number }).count;
    })
    .toBe(1);
  await expect(card.getByText('Pending')).toHaveCount(0, { timeout: 20_000 });
});
