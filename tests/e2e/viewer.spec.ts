// The viewer opens a processed slide, zooms, and shows tissue; fluorescence channels can be toggled.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { idbCount, openStudies } from './offline-helpers';
import type { SeededSlide } from './seed-slides';

const slides = () => JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>;

/** Waits for the server's worker to finish processing the image (it starts with the server). */
async function processed(page: Page, imageId: string) {
  await expect
    .poll(async () => (await page.request.get(`/v2/images/${imageId}`)).json().then((b) => b.result.status), {
      timeout: 60_000,
    })
    .toBe('completed');
}

/** Spread of the canvas's pixel values: tissue varies, a blank canvas does not. */
async function canvasSpread(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector('[data-testid="slide-viewer"] canvas') as HTMLCanvasElement | null;
    if (!canvas) return 0;
    const ctx = canvas.getContext('2d');
    if (!ctx) return 0;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let min = 255;
    let max = 0;
    for (let i = 0; i < data.length; i += 16) {
      min = Math.min(min, data[i], data[i + 1], data[i + 2]);
      max = Math.max(max, data[i], data[i + 1], data[i + 2]);
    }
    return max - min;
  });
}

test('a brightfield slide opens in the viewer, zooms to 1:1 and shows tissue', async ({ page }) => {
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible();
  // Its own image, and those an upload test may have linked to the same label.
  await expect(page.getByText(/^\d+ Images$/)).toBeVisible();
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  await page.getByRole('button', { name: '1:1' }).click();
  await expect(page.getByLabel(/^Scale: /)).toBeVisible();
  await page.waitForTimeout(1500);
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  await page.screenshot({ path: 'test-results/viewer-brightfield.png' });

  // Viewer options are saved for this user and come back on the next visit.
  const exposure = page.getByRole('slider', { name: 'Exposure' });
  await exposure.focus();
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await expect(exposure).toHaveAttribute('aria-valuenow', '0.5');
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.getByRole('slider', { name: 'Exposure' })).toHaveAttribute('aria-valuenow', '0.5');
});

test('a fluorescence slide shows its channels, which can be switched off', async ({ page }) => {
  await signIn(page);
  const s = slides().fluorescence;
  await processed(page, s.imageId);
  await page.goto(`/image/${s.imageId}`);
  for (const name of ['DAPI', 'Opal 520', 'Opal 570', 'Opal 690'])
    await expect(page.getByLabel(name, { exact: true })).toBeVisible();
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(20);
  await page.screenshot({ path: 'test-results/viewer-fluorescence.png' });
  for (const name of ['DAPI', 'Opal 520', 'Opal 570', 'Opal 690'])
    await page.getByLabel(name, { exact: true }).uncheck({ force: true });
  await expect.poll(() => canvasSpread(page), { timeout: 10_000 }).toBeLessThan(5);
});

test('a slide seen once opens offline: its page data from the local store, its tiles from the cache', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const s = slides().brightfield;
  await openStudies(page); // signed in, service worker in control, first pull done
  await processed(page, s.imageId);
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  // The slide and its image are in the mirror once the pull has brought them.
  await expect.poll(() => idbCount(page, 'images', s.imageId), { timeout: 20_000 }).toBe(1);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/^[1-9]\d* Images$/)).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  await context.setOffline(false);
});
