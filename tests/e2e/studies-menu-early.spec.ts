// The studies list's first render draws its first cards bare (no menu yet, StudyCard.tsx); a click on
// a card's ⋮ in that moment must still open its menu once the menu is there. The CPU is slowed so the
// click lands on the bare button.
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a click on a study menu during the first render opens the menu', async ({ page }) => {
  await signIn(page);
  const res = await page.request.post('/v2/studies', { data: { study: { name: 'Early click study' } } });
  expect(res.status()).toBe(200);
  await page.goto('/dashboard/recent-activity');
  await expect(page.getByRole('tab', { name: 'Studies' })).toBeVisible();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 30 });
  await page.getByRole('tab', { name: 'Studies' }).click();
  await page.getByRole('button', { name: 'Study menu Early click study' }).click();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
});
