// The viewer opens a processed slide, zooms, and shows tissue; fluorescence channels can be toggled.
import { expect, test, type Page } from '@playwright/test';
import { errorAnswer, errorText } from '../../src/api/errors';
import { Misc } from '../../src/api/messages';
import { COUNT_COMMITS } from './react-commits';
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

const MAIN_CANVAS = '[data-testid="slide-viewer"] canvas';
const NAVIGATOR_CANVAS = '[data-testid="slide-viewer"] .navigator canvas';

/**
 * Two figures of a canvas's pixels: `spread`, max − min over all their channels (tissue varies, a blank
 * canvas does not), and `chroma`, that of the most colourful pixel (0 where all is grey).
 */
async function canvasStats(page: Page, selector: string): Promise<{ spread: number; chroma: number }> {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel) as HTMLCanvasElement | null;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || !canvas.width || !canvas.height) return { spread: 0, chroma: 0 };
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let min = 255;
    let max = 0;
    let chroma = 0;
    for (let i = 0; i < data.length; i += 4) {
      const hi = Math.max(data[i], data[i + 1], data[i + 2]);
      const lo = Math.min(data[i], data[i + 1], data[i + 2]);
      min = Math.min(min, lo);
      max = Math.max(max, hi);
      chroma = Math.max(chroma, hi - lo);
    }
    return { spread: max - min, chroma };
  }, selector);
}

const canvasSpread = async (page: Page) => (await canvasStats(page, MAIN_CANVAS)).spread;

/** The stored content of this image's annotation with that name, as the API answers it. */
async function annotationContent(page: Page, imageId: string, name: string): Promise<unknown> {
  const res = await page.request.get(`/v2/annotations?imageId=${imageId}&limit=100`);
  return (await res.json()).result.find((a: { name: string }) => a.name === name)?.content;
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
  // The navigator shows the channels in their colours too, not grey.
  await expect
    .poll(async () => (await canvasStats(page, NAVIGATOR_CANVAS)).chroma, { timeout: 20_000 })
    .toBeGreaterThan(40);
  for (const name of ['DAPI', 'Opal 520', 'Opal 570', 'Opal 690'])
    await page.getByLabel(name, { exact: true }).uncheck({ force: true });
  await expect.poll(() => canvasSpread(page), { timeout: 10_000 }).toBeLessThan(5);
});

test('a slide still being processed says so, and its missing tiles show once they are ready', async ({
  page,
  context,
}) => {
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  // The tiles answer as the server does for a slide without a pyramid of its own before ours is
  // written (TILE_NOT_READY: tests/api/tiles-on-demand.test.ts), until `ready`.
  let ready = false;
  const refused = new Set<string>();
  const asked: string[] = [];
  await context.route(/\/tiles\/(rgb_files\/|thumbnail\.jpg)/, async (route) => {
    const url = route.request().url();
    if (ready) {
      asked.push(url);
      return route.continue();
    }
    refused.add(url);
    return route.fulfill({
      status: errorAnswer('TILE_NOT_READY').status,
      headers: { 'Retry-After': '1' },
      json: { message: errorText('TILE_NOT_READY') },
    });
  });
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  const note = page.getByTestId('tiles-not-ready');
  await expect(note).toHaveText(Misc.tilesNotReady);
  expect(await canvasSpread(page)).toBeLessThan(5);

  ready = true;
  // Once one answers, every tile that was refused is asked for again, with no move of the view.
  await expect(note).toBeHidden({ timeout: 10_000 });
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  await expect.poll(() => [...refused].filter((u) => !asked.includes(u))).toEqual([]);
  // The image's thumbnail beside the slide, the logo meanwhile, is asked for again and shows.
  const thumbnail = page.getByRole('button', { name: /^Image 1: / }).locator('img');
  await expect
    .poll(
      () =>
        thumbnail.evaluate(
          (img: HTMLImageElement) =>
            img.complete && img.src.endsWith('/thumbnail.jpg') && img.naturalWidth > 0,
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
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

test('a region drawn on the slide is saved as an annotation, follows the zoom and is drawn again', async ({
  page,
}) => {
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);

  // Outline a region with the pointer: the drag draws instead of panning.
  const name = `Margin ${Date.now()}`;
  await page.getByRole('button', { name: 'Draw region' }).click();
  const box = (await page.getByTestId('annotation-layer').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(cx - 80, cy - 50);
  await page.mouse.down();
  for (const [x, y] of [
    [cx + 80, cy - 50],
    [cx + 80, cy + 50],
    [cx - 80, cy + 50],
    [cx - 80, cy - 45],
  ])
    await page.mouse.move(x, y, { steps: 8 });
  await page.mouse.up();
  const dialog = page.getByRole('dialog', { name: 'New region' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Note').fill('Invasive front');
  await dialog.getByRole('button', { name: 'Save region' }).click();

  // Regions are drawn on a canvas; a click on one selects it and outlines it, named, in SVG.
  const region = page
    .getByTestId('annotation-region')
    .filter({ has: page.locator('title', { hasText: name }) });
  const selected = async () => {
    await page.mouse.click(cx, cy);
    return region.count();
  };
  await expect.poll(selected, { timeout: 20_000 }).toBe(1);
  // Stored on the server as a closed polygon in image pixels, with its note.
  await expect
    .poll(() => annotationContent(page, s.imageId, name), { timeout: 20_000 })
    .toMatchObject({
      type: 'Feature',
      geometry: { type: 'Polygon' },
      properties: { text: 'Invasive front' },
    });

  // Saved: drawn solid (no longer the dashed queued outline, which the stored one replaces).
  await expect
    .poll(async () => (await selected()) === 1 && (await region.getAttribute('stroke-dasharray')), {
      timeout: 20_000,
    })
    .toBeNull();
  // Zooming to 1:1 scales the outline with the slide.
  const width = async () => (await region.boundingBox())?.width ?? 0;
  await expect.poll(width, { timeout: 20_000 }).toBeGreaterThan(0);
  const before = await width();
  await page.getByRole('button', { name: '1:1' }).click();
  await expect.poll(width, { timeout: 20_000 }).not.toBeCloseTo(before, 0);

  // A new visit draws it again; the eye hides and shows the regions.
  await page.reload();
  await expect.poll(selected, { timeout: 30_000 }).toBe(1);
  await page.getByRole('button', { name: 'Hide regions' }).click();
  await expect(region).toHaveCount(0);
  await page.getByRole('button', { name: 'Show regions' }).click();
  await expect(region).toHaveCount(1);
  await page.screenshot({ path: 'test-results/viewer-region.png' });

  // Listed with the notes; editing its note keeps its outline.
  await page.getByRole('button', { name: 'Annotations' }).click();
  const item = page.getByTestId('annotation').filter({ hasText: name });
  await expect(item).toContainText('Invasive front');
  await item.getByRole('button', { name: 'Edit' }).click();
  await item.getByLabel('Edit annotation').fill('Invasive front, budding');
  await item.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(() => annotationContent(page, s.imageId, name), { timeout: 20_000 })
    .toMatchObject({ geometry: { type: 'Polygon' }, properties: { text: 'Invasive front, budding' } });
});

test('the slide and the Annotations panel share one selection', async ({ page }) => {
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  // A rectangle away from the middle, where the other tests draw theirs.
  const name = `Shared pick ${Date.now()}`;
  const ring = [
    [200, 150],
    [500, 150],
    [500, 400],
    [200, 400],
    [200, 150],
  ];
  const made = await page.request.post('/v2/annotations', {
    data: {
      annotation: {
        imageId: s.imageId,
        name,
        content: { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} },
      },
    },
  });
  expect(made.ok()).toBe(true);
  const id = (await made.json()).result.id as string;
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  const canvas = page.getByTestId('annotation-canvas');
  const outline = page
    .getByTestId('annotation-region')
    .filter({ has: page.locator('title', { hasText: name }) });

  // Panel → slide: the row's title selects the region, which is outlined and fitted into view.
  await page.getByRole('button', { name: 'Annotations' }).click();
  const row = page.getByTestId('annotation').filter({ hasText: name });
  await row.getByTestId('annotation-title').click();
  await expect(row).toHaveAttribute('data-selected', 'true');
  await expect(row.getByTestId('annotation-title')).toHaveAttribute('aria-current', 'true');
  await expect(canvas).toHaveAttribute('data-selected-id', id);
  await expect(outline).toHaveCount(1);

  // Esc in the panel closes it; Esc on the slide clears the selection.
  await page.keyboard.press('Escape');
  await expect(row).toBeHidden();
  // Once the fit has settled: the same box twice, a moment apart.
  let box = (await outline.boundingBox())!;
  await expect
    .poll(async () => {
      const was = box;
      await page.waitForTimeout(200);
      box = (await outline.boundingBox())!;
      return box.width > 100 && JSON.stringify(box) === JSON.stringify(was);
    })
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(canvas).not.toHaveAttribute('data-selected-id', /./);

  // Slide → panel: a click on the region selects it, and its row is marked when the panel opens.
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(canvas).toHaveAttribute('data-selected-id', id);
  await page.getByRole('button', { name: 'Annotations' }).click();
  await expect(row).toHaveAttribute('data-selected', 'true');
});

test('dragging the slide moves the viewer and its layers without rendering the page', async ({ page }) => {
  await page.addInitScript(COUNT_COMMITS);
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect.poll(() => canvasSpread(page), { timeout: 20_000 }).toBeGreaterThan(40);
  await expect(page.getByLabel(/^Scale: /)).toBeVisible();
  const scale = await page.getByLabel(/^Scale: /).getAttribute('aria-label');
  await page.waitForTimeout(1000);

  const commits = () => page.evaluate(() => (window as { __commits?: number }).__commits ?? 0);
  const frames = `new Promise((resolve) => {
    let n = 0;
    const tick = () => (window.__dragging ? (n++, requestAnimationFrame(tick)) : resolve(n));
    window.__dragging = true;
    requestAnimationFrame(tick);
  })`;
  const box = (await page.getByTestId('annotation-layer').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const before = await commits();
  const counted = page.evaluate(frames) as Promise<number>;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  const region = page.locator('.navigator .displayregion');
  const from = await region.boundingBox();
  for (let i = 1; i <= 40; i++) await page.mouse.move(cx + 120 * Math.sin(i / 6), cy + 60 * Math.sin(i / 9));
  // The slide moved: the navigator's frame of the view with it.
  expect(await region.boundingBox()).not.toEqual(from);
  await page.mouse.up();
  await page.waitForTimeout(1000);
  await page.evaluate(() => ((window as { __dragging?: boolean }).__dragging = false));
  const drawn = await counted;
  const rendered = (await commits()) - before;
  // The scale bar stayed as it was (same zoom).
  await expect(page.getByLabel(/^Scale: /)).toHaveAttribute('aria-label', scale!);
  // A few commits at most (the pointer's press and release), not one per frame of the pan.
  expect(rendered, `${rendered} React commits in ${drawn} frames`).toBeLessThan(6);
});
