// The viewer as a lab and a reviewer use it: a fluorescence slide's thumbnail shows its channels in
// their colours; the study viewer steps through the study's slides (buttons, arrow keys, a swipe on
// its header) on a touch tablet; in portrait the slide gets the width and the touch targets are big;
// two images of a slide are aligned from the viewer and opened side by side, their navigation locked,
// and an annotation is copied from one to the other.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Annotation, Image, Study } from '../../src/api/entities';
import { signIn } from './helpers';
import type { SeededSlide } from './seed-slides';

const slides = () => JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>;
const TABLET = { viewport: { width: 800, height: 1280 }, hasTouch: true, isMobile: true };

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
  // The colours of the picture the poll saw loaded: the list may draw its card again (a pull), and a
  // new image element is incomplete for a moment.
  let colours: Awaited<ReturnType<typeof pictureColours>>;
  await expect
    .poll(async () => {
      colours = await pictureColours(page, thumb);
      return colours?.mean ?? 0;
    })
    .toBeGreaterThan(30);
  for (const hue of ['blue', 'green', 'yellow', 'red'] as const)
    expect(colours!.share[hue], hue).toBeGreaterThan(0.01);
  await page.screenshot({ path: '/tmp/viewer-flows/thumbnail-1440.png' });
});

/** A one-finger touch drag from `from` to `to`, as a tablet's touchscreen sends it. */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= 8; i++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: from.x + ((to.x - from.x) * i) / 8, y: from.y + ((to.y - from.y) * i) / 8 }],
    });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A study of the two seeded slides, brightfield first, through the API. */
async function twoSlideStudy(page: Page): Promise<Study> {
  const { brightfield, fluorescence } = slides();
  const res = await page.request.post('/v2/studies', {
    data: {
      study: {
        name: `Stepping ${Date.now()}`,
        scanGroupIds: [brightfield.scanGroupId, fluorescence.scanGroupId],
      },
    },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { result: Study }).result;
}

/** A touch target is at least 44×44 CSS px on screen (polled: a card may draw its menu a moment later). */
async function expectTouchSize(target: Locator) {
  await expect(target).toBeVisible();
  const size = async () => {
    const box = await target.boundingBox();
    return box ? { width: box.width >= 44, height: box.height >= 44 } : undefined;
  };
  await expect.poll(size, { message: `size of ${target}` }).toEqual({ width: true, height: true });
}

test.describe('on a tablet', () => {
  test.use(TABLET);

  test('the study viewer steps through the study’s slides: buttons, arrow keys, swipe', async ({ page }) => {
    await signIn(page);
    const { brightfield, fluorescence } = slides();
    const study = await twoSlideStudy(page);
    const at = async (n: 1 | 2) => {
      const s = n === 1 ? brightfield : fluorescence;
      await expect(page).toHaveURL(new RegExp(`/sviewer/${study.id}/${n}$`));
      await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible();
      await expect(page.getByText(`Slide ${n} of 2`)).toBeVisible();
    };
    await page.goto(`/sviewer/${study.id}/1`);
    await at(1);
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await page.getByRole('button', { name: 'Next' }).tap();
    await at(2);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await page.keyboard.press('ArrowLeft');
    await at(1);
    await page.keyboard.press('ArrowRight');
    await at(2);

    // A swipe on the header: to the right for the previous slide, to the left for the next.
    const header = page.locator('[data-swipe-area]');
    const box = (await header.boundingBox())!;
    const y = box.y + box.height / 2;
    await swipe(page, { x: box.x + 100, y }, { x: box.x + 400, y });
    await at(1);
    await swipe(page, { x: box.x + 400, y }, { x: box.x + 100, y });
    await at(2);

    // The same drag on the slide pans it and stays on this slide.
    const canvas = (await page.getByTestId('slide-viewer').boundingBox())!;
    const cy = canvas.y + canvas.height / 2;
    await swipe(page, { x: canvas.x + 50, y: cy }, { x: canvas.x + canvas.width - 50, y: cy });
    await page.waitForTimeout(500);
    await at(2);
    await page.screenshot({ path: '/tmp/viewer-flows/study-viewer-800.png' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: '/tmp/viewer-flows/study-viewer-1440.png' });
  });

  test('in portrait the slide gets the width; cards’ menus, hearts and review links are 44×44', async ({
    page,
  }) => {
    await signIn(page);
    const { fluorescence: s } = slides();
    await processed(page, s.imageId);
    const study = await twoSlideStudy(page);
    const group = crypto.randomUUID();
    const made = await page.request.post('/v2/reviews', {
      data: { review: { reviewGroupUUID: group, imageId: s.imageId, type: 'qc', status: 'flagged' } },
    });
    expect(made.status()).toBe(200);

    // The viewer: the slide takes (almost) the whole width; the controls wait in a drawer.
    await page.goto(`/sviewer/${study.id}/2`);
    await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible();
    await expect(page.getByTestId('slide-viewer')).toBeVisible();
    expect((await page.getByTestId('slide-viewer').boundingBox())!.width).toBeGreaterThan(700);
    await expect(page.getByLabel('DAPI', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: '/tmp/viewer-flows/viewer-portrait-800.png' });
    const open = page.getByRole('button', { name: 'Viewer controls' });
    await expectTouchSize(open);
    await open.tap();
    const drawer = page.getByRole('dialog', { name: 'Viewer controls' });
    await expect(drawer.getByLabel('DAPI', { exact: true })).toBeChecked();
    await drawer.getByRole('switch', { name: 'DAPI' }).tap();
    await expect(drawer.getByLabel('DAPI', { exact: true })).not.toBeChecked();
    await page.screenshot({ path: '/tmp/viewer-flows/viewer-drawer-800.png' });
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    for (const name of ['Previous', 'Draw region']) await expectTouchSize(page.getByRole('button', { name }));

    // Slide and study cards: the menu and the heart.
    await page.goto('/dashboard/slides');
    await page.getByRole('textbox', { name: 'Search', exact: true }).fill(s.simpleId);
    const slideCard = page.locator(`[data-slide-id="${s.scanGroupId}"]`);
    await expectTouchSize(slideCard.getByRole('button', { name: `Slide menu ${s.simpleId}` }));
    await expectTouchSize(slideCard.getByRole('button', { name: /^(Add|Remove) heart$/ }));
    await page.screenshot({ path: '/tmp/viewer-flows/slides-800.png' });
    await page.goto('/dashboard/studies');
    await page.getByRole('textbox', { name: 'Search', exact: true }).fill(study.name);
    const studyCard = page.locator(`[data-study-id="${study.id}"]`);
    await expectTouchSize(studyCard.getByRole('button', { name: `Study menu ${study.name}` }));

    // Review links on the review group's card.
    await page.goto('/dashboard/reviews-and-qc');
    const reviewCard = page.locator(`[data-testid="review-card"][data-group="${group}"]`);
    await expect(reviewCard).toBeVisible({ timeout: 20_000 });
    for (const name of ['Open', 'QC report']) await expectTouchSize(reviewCard.getByRole('link', { name }));
    await page.screenshot({ path: '/tmp/viewer-flows/reviews-800.png' });

    // A wide window keeps the controls beside the slide.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/sviewer/${study.id}/2`);
    await expect(page.getByLabel('DAPI', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Viewer controls' })).toHaveCount(0);
    await page.screenshot({ path: '/tmp/viewer-flows/viewer-1440-touch.png' });
  });
});

/** Uploads a fixture as a plain tus client would: the creation, then every byte in one PATCH. */
async function uploadFixture(page: Page, file: string): Promise<void> {
  const bytes = fs.readFileSync(path.resolve(process.cwd(), '../shared/fixtures', file));
  const tus = { 'tus-resumable': '1.0.0' };
  const name = Buffer.from(path.basename(file)).toString('base64');
  const created = await page.request.post('/v2/uploads', {
    headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': `filename ${name}` },
  });
  expect(created.status()).toBe(201);
  const patched = await page.request.patch(created.headers()['location']!, {
    headers: { ...tus, 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
    data: bytes,
  });
  expect(patched.status()).toBe(204);
}

/** The element's screenshot once two taken half a second apart agree (its tiles have loaded). */
async function settled(page: Page, target: Locator): Promise<Buffer> {
  let previous = await target.screenshot();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(500);
    const next = await target.screenshot();
    if (next.equals(previous)) return next;
    previous = next;
  }
  return previous;
}

test('two images of a slide are aligned from the viewer, viewed locked, and share an annotation', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const s = slides().brightfield;
  await processed(page, s.imageId);
  // A second scan of the slide: the copy's label links it to the same slide once processed. Upload
  // tests may have linked others, in any state: the pair is picked by position, as the viewer lists it.
  await uploadFixture(page, 'qptiff/brightfield.qptiff');
  const listed = async () => {
    const res = await page.request.get(
      `/v2/images?scanGroupId=${s.scanGroupId}&limit=100&orderDirection=asc`,
    );
    return ((await res.json()) as { result: Image[] }).result;
  };
  const ready = (i: Image) => i.status === 'completed' && i.displayStatus === 'completed';
  await expect
    .poll(async () => (await listed()).filter((i) => ready(i) && i.id !== s.imageId).length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
  const images = await listed();
  const copy = images.findLastIndex((i) => ready(i) && i.id !== s.imageId);
  const option = (i: number) => `Image ${i + 1}: ${images[i]!.name}`;

  // A region on the copy, to be carried over to the reference.
  const region = `Aligned margin ${Date.now()}`;
  const ring = [
    [100, 100],
    [400, 120],
    [300, 380],
    [100, 100],
  ];
  const made = await page.request.post('/v2/annotations', {
    data: {
      annotation: {
        imageId: images[copy]!.id,
        name: region,
        content: { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} },
      },
    },
  });
  expect(made.ok()).toBe(true);

  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await page.getByRole('button', { name: 'Align with…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Align two images' });
  for (const [label, index] of [
    ['Reference image', images.findIndex((i) => i.id === s.imageId)],
    ['Target image (moved onto the reference)', copy],
  ] as const) {
    await dialog.getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option(index), exact: true }).click();
  }
  await dialog.getByRole('button', { name: 'Align', exact: true }).click();
  await expect(dialog.getByTestId('alignment-status')).toHaveText(/^Aligned \(score /, { timeout: 30_000 });
  await page.screenshot({ path: '/tmp/viewer-flows/align-dialog-1440.png' });
  await dialog.getByRole('button', { name: 'Open aligned view' }).click();

  await expect(page).toHaveURL(/\/aligned\/[0-9a-f-]+$/);
  const reference = page.getByTestId('aligned-reference').getByTestId('slide-viewer');
  const target = page.getByTestId('aligned-target').getByTestId('slide-viewer');
  await expect(reference).toBeVisible();
  await expect(target).toBeVisible();
  const before = await settled(page, target);
  // A drag on the reference moves the target too.
  const box = (await reference.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - 150, y - 100, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await settled(page, target)).equals(before)).toBe(false);
  await page.screenshot({ path: '/tmp/viewer-flows/aligned-side-1440.png' });

  // The copy's region, copied to the reference through the outbox, lands on the same pixels there
  // (two scans of one slide: the alignment is the identity, give or take a pixel).
  await page.getByRole('button', { name: `Copy to reference: ${region}` }).click();
  const copied = async () => {
    const res = await page.request.get(`/v2/annotations?imageId=${s.imageId}&orderDirection=desc&limit=100`);
    return ((await res.json()) as { result: Annotation[] }).result.find((a) => a.name === region);
  };
  await expect.poll(copied, { timeout: 15_000 }).toBeTruthy();
  const landed = (await copied())!;
  expect(landed.sourceImageId).toBe(images[copy]!.id);
  const points = (landed.content as { geometry: { coordinates: number[][][] } }).geometry.coordinates[0]!;
  points.forEach(([x, y], i) => {
    expect(Math.abs(x! - ring[i]![0]!)).toBeLessThan(3);
    expect(Math.abs(y! - ring[i]![1]!)).toBeLessThan(3);
  });

  await page.getByText('Overlay', { exact: true }).click();
  await expect(page.getByRole('slider')).toBeVisible();
  await settled(page, page.getByTestId('aligned-views'));
  await page.screenshot({ path: '/tmp/viewer-flows/aligned-overlay-1440.png' });
});
