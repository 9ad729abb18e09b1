// The slide grid's first render draws its cards bare (no menu yet, SlideGrid.tsx): a click on a card's
// ⋮ in that moment must still open its menu once the menu is there, and a focus put on the bare button
// must stay on the menu's button (keyboard use). The click or focus is given the moment the button is
// in the page (a MutationObserver, before the first paint), so it always finds the bare button; the
// test checks that it did.
import { expect, test, type Page } from '@playwright/test';
import type { ScanGroup } from '../../src/api/entities';
import { signIn } from './helpers';

/** Opens the slides tab from the dashboard and clicks or focuses the new slide's ⋮ as soon as it is there. */
async function earlyOnSlidesTab(page: Page, act: 'click' | 'focus'): Promise<string> {
  await signIn(page);
  const res = await page.request.post('/v2/scan-groups', {
    data: { scanGroup: { name: 'Early click slide' } },
  });
  expect(res.ok()).toBe(true);
  const { simpleId } = ((await res.json()) as { result: ScanGroup }).result;
  const label = `Slide menu ${simpleId}`;
  await page.goto('/dashboard/recent-activity');
  await expect(page.getByRole('tab', { name: 'Slides' })).toBeVisible();
  await expect(page.getByRole('button', { name: label })).toHaveCount(0);
  await page.evaluate(
    ([label, act]) => {
      const w = window as unknown as { __earlyButton?: string };
      const observer = new MutationObserver(() => {
        const button = document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
        if (!button) return;
        observer.disconnect();
        w.__earlyButton = button.hasAttribute('aria-haspopup') ? 'menu' : 'bare';
        if (act === 'click') button.click();
        else button.focus();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    },
    [label, act] as const,
  );
  await page.getByRole('tab', { name: 'Slides' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __earlyButton?: string }).__earlyButton))
    .toBe('bare');
  return label;
}

test('a click on a slide menu during the first render opens the menu', async ({ page }) => {
  const label = await earlyOnSlidesTab(page, 'click');
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Print' })).toBeVisible();
  await expect(page.getByRole('button', { name: label })).toHaveAttribute('aria-expanded', 'true');
});

test('a focus on a slide menu during the first render stays, and Enter opens the menu', async ({ page }) => {
  const label = await earlyOnSlidesTab(page, 'focus');
  const button = page.getByRole('button', { name: label });
  // The menu's own button (with its popup) replaces the bare one and has the focus.
  await expect(button).toHaveAttribute('aria-haspopup', 'menu');
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Share' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Share' })).toHaveCount(0);
  await expect(button).toBeFocused();
});
