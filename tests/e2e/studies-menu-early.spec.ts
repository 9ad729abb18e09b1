// The studies list's first render draws its first cards bare (no menu yet, StudyCard.tsx); a click on
// a card's ⋮ in that moment must still open its menu once the menu is there. The click is given the
// moment the button is in the page (a MutationObserver, before the first paint), so it always finds
// the bare button; the test checks that it did.
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('a click on a study menu during the first render opens the menu', async ({ page }) => {
  await signIn(page);
  const res = await page.request.post('/v2/studies', { data: { study: { name: 'Early click study' } } });
  expect(res.status()).toBe(200);
  const label = 'Study menu Early click study';
  await page.goto('/dashboard/recent-activity');
  await expect(page.getByRole('tab', { name: 'Studies' })).toBeVisible();
  // The local store must hold the new study first (Recent Studies reads it there), or the list's first
  // render would lack it and the card would arrive later, already with its menu.
  await expect(page.getByRole('button', { name: label })).toBeVisible();
  await page.evaluate((label) => {
    const w = window as unknown as { __earlyButton?: string };
    // The dashboard's Recent Studies shows the card too: only a button that is not that one counts.
    // (Not the URL: the tab's first render may come before the address changes.)
    const dashboards = new Set(document.querySelectorAll(`button[aria-label="${label}"]`));
    const observer = new MutationObserver(() => {
      const button = [...document.querySelectorAll<HTMLButtonElement>(`button[aria-label="${label}"]`)].find(
        (b) => !dashboards.has(b),
      );
      if (!button) return;
      observer.disconnect();
      w.__earlyButton = button.hasAttribute('aria-haspopup') ? 'menu' : 'bare';
      button.click();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, label);
  await page.getByRole('tab', { name: 'Studies' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __earlyButton?: string }).__earlyButton))
    .toBe('bare');
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
});
