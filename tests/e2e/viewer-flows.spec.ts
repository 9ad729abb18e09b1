// The viewer as a lab and a reviewer use it: a fluorescence slide's thumbnail shows its channels in
// their colours; the study viewer steps through the study's slides (buttons, arrow keys, a swipe on
// its header) on a touch tablet; in portrait the slide gets the width and the touch targets are big.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
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

/**
 * A loaded picture's mean brightness (0..255) and the share of its pixels that are saturated (chroma
 * over 100) in each of the fixture's channel hues: blue, green, yellow and red.
 */
async function pictureColours(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const img = document.querySelector(sel) as HTMLImageElement | null;
    if (!img || !img.complete || !img.naturalWidth) return undefined;
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const hues: Record<string, number> = { blue: 240, green: 120, yellow: 60, red: 0 };
    const share: Record<string, number> = { blue: 0, green: 0, yellow: 0, red: 0 };
    let sum = 0;
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      sum += (r + g + b) / 3;
      const max = Math.max(r, g, b);
      const chroma = max - Math.min(r, g, b);
      if (chroma < 100) continue;
      const h =
        max === r
          ? (60 * ((g - b) / chroma) + 360) % 360
          : max === g
            ? 60 * ((b - r) / chroma) + 120
            : 60 * ((r - g) / chroma) + 240;
      for (const name of Object.keys(hues)) {
        const d = Math.abs(h - hues[name]);
        if (Math.min(d, 360 - d) <= 15) share[name] += 1 / n;
      }
    }
    return { mean: sum / n, share };
  }, selector);
}

test('a fluorescence slide’s card shows its thumbnail in the channels’ colours', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const s = slides().fluorescence;
  await processed(page, s.imageId);
  await page.goto('/dashboard/slides');
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(s.simpleId);
  const thumb = `[data-slide-id="${s.scanGroupId}"] img[alt="Slide ${s.simpleId}"]`;
  await expect(page.locator(thumb)).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await pictureColours(page, thumb))?.mean ?? 0).toBeGreaterThan(30);
  const colours = (await pictureColours(page, thumb))!;
  for (const hue of ['blue', 'green', 'yellow', 'red'] as const)
    expect(colours.share[hue], hue).toBeGreaterThan(0.01);
  await page.screenshot({ path: '/tmp/viewer-flows/thumbnail-1440.png' });
});
