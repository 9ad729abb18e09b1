// The dashboard's tabs with their activity feeds (own, organization, collaborators) and the
// slide selection popup (/image-selection) talking to its opener.
import { expect, test } from '@playwright/test';
import type { ScanGroup } from '../../src/api/entities';
import { signIn } from './helpers';
import { createStudyOnServer, studyOnServer } from './offline-helpers';

test('dashboard tabs and activity feeds', async ({ page }) => {
  await signIn(page);
  const study = await createStudyOnServer(page, `Feed ${Date.now()}`);
  const tagged = await page.request.patch(`/v2/studies/${study.id}`, {
    data: { study: {}, add: { tags: ['feed'] } },
  });
  expect(tagged.status()).toBe(200);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard\/recent-activity/);
  // Sentences about things, in the product's words, with the time of day and a link to the study.
  const mine = page.getByTestId('activity-mine').getByTestId('activity-row').filter({ hasText: study.name });
  await expect(mine.nth(1)).toContainText(`You created study ${study.name}`);
  await expect(mine.first()).toContainText(`You changed the tags of study ${study.name}`);
  await expect(mine.first()).toContainText(/\d{1,2}:\d{2}/);
  await expect(mine.first().getByRole('link', { name: study.name })).toHaveAttribute(
    'href',
    `/studies/${study.id}`,
  );
  await page.screenshot({ path: '/tmp/h7-shots/dashboard-desktop.png' });
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.screenshot({ path: '/tmp/h7-shots/dashboard-tablet.png' });
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole('tab', { name: 'Organization Activity' }).click();
  await expect(page).toHaveURL(/\/dashboard\/organization-activity/);
  await expect(
    page
      .getByTestId('activity-organization')
      .getByTestId('activity-row')
      .filter({ hasText: study.name })
      .first(),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Collaborator Activity' }).click();
  await expect(page).toHaveURL(/\/dashboard\/collaborator-activity/);
  await expect(page.getByTestId('activity-collaborator')).toBeVisible();
  await page.getByRole('tab', { name: 'Slides' }).click();
  await expect(page.getByRole('heading', { name: 'Slides' })).toBeVisible();
  await page.getByRole('tab', { name: 'Recent Activity' }).click();
  await page.getByRole('link', { name: 'Go to all studies' }).click();
  await expect(page).toHaveURL(/\/dashboard\/studies$/);
  await expect(page.getByTestId('study-card').filter({ hasText: study.name })).toBeVisible();
});

test('the slide selection popup hands its selection to the opener', async ({ page }) => {
  await signIn(page);
  const stamp = Date.now();
  const res = await page.request.post('/v2/scan-groups', { data: { scanGroup: { name: `Popup ${stamp}` } } });
  const slide = ((await res.json()) as { result: ScanGroup }).result;
  const study = await createStudyOnServer(page, `Popup study ${stamp}`);
  await page.goto(`/studies/${study.id}`);
  await expect(page.getByRole('heading', { name: study.name })).toBeVisible({ timeout: 20_000 });
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Add Slides' }).click(),
  ]);
  await expect(popup).toHaveURL(/\/image-selection\?studyId=/);
  await popup.getByRole('textbox', { name: 'Search', exact: true }).fill(`Popup ${stamp}`);
  await expect(popup).toHaveURL(/textSearch=/);
  await popup.getByRole('button', { name: `Slide ${slide.simpleId}` }).click();
  await expect(popup.getByText('1 selected')).toBeVisible();
  await popup.screenshot({ path: '/tmp/h7-shots/image-selection.png' });
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Done' }).click()]);
  await expect(page.getByText('Images Replicated').first()).toBeVisible();
  await expect.poll(async () => (await studyOnServer(page, study.id)).scanGroupIds).toContain(slide.id);
  await expect(page.locator(`[data-slide-id="${slide.id}"]`)).toBeVisible();
});
