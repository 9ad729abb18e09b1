// The annotation tools with a mouse: a rectangle and a polygon drawn, saved with a name, undone and
// redone with the keyboard, checked on the server; then every other tool, each measured as it is
// saved. On a tablet: the tool bar's touch targets, a rectangle drawn with a finger, measured in µm,
// classified, exported as QuPath GeoJSON and imported into another slide with its shape and class; and
// every other tool drawn with a finger.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import type { SeededSlide } from './seed-slides';

const slides = () => JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>;
const SHOTS = process.env.E2E_OUTPUT || '/tmp/e2e-drawing';

interface Stored {
  id: string;
  name: string;
  content: {
    geometry: { type: string; coordinates: number[][][] };
    properties: { shape?: { type: string }; classification?: { name: string; color: number[] } };
  };
}

interface ExportedFeature {
  geometry: { type: string; coordinates: number[][][] };
  properties: { name?: string; objectType?: string; classification?: { name: string; color: number[] } };
}

/** This image's annotations whose name starts with `prefix`, as the API answers. */
async function stored(page: Page, imageId: string, prefix: string): Promise<Stored[]> {
  const res = await page.request.get(`/v2/annotations?imageId=${imageId}&limit=100`);
  return ((await res.json()).result as Stored[]).filter((a) => a.name.startsWith(prefix));
}

async function openViewer(page: Page, key: 'brightfield' | 'fluorescence' = 'brightfield') {
  const s = slides()[key];
  await expect
    .poll(async () => (await (await page.request.get(`/v2/images/${s.imageId}`)).json()).result.status, {
      timeout: 60_000,
    })
    .toBe('completed');
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  // Enabled once the slide is placed (the tools need its coordinates).
  await expect(page.getByRole('button', { name: 'Rectangle' })).toBeEnabled({ timeout: 30_000 });
  return s;
}

async function saveAs(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: 'New region' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Save region' }).click();
  await expect(dialog).toHaveCount(0);
}

/** What each tool saves: the dialog it opens, its measurement, and the geometry stored. */
const EXPECTED = {
  polygon: {
    dialog: 'region',
    measured: /^Area [\d.,]+ µm² · Perimeter /,
    geometry: 'Polygon',
    hint: undefined,
  },
  ellipse: {
    dialog: 'region',
    measured: /^Area [\d.,]+ µm² · Perimeter /,
    geometry: 'Polygon',
    hint: 'ellipse',
  },
  freehand: {
    dialog: 'region',
    measured: /^Area [\d.,]+ µm² · Perimeter /,
    geometry: 'Polygon',
    hint: undefined,
  },
  polyline: {
    dialog: 'annotation',
    measured: /^Length [\d.,]+ µm$/,
    geometry: 'LineString',
    hint: undefined,
  },
  point: { dialog: 'annotation', measured: undefined, geometry: 'Point', hint: undefined },
  ruler: { dialog: 'annotation', measured: /^Length [\d.,]+ µm$/, geometry: 'LineString', hint: undefined },
} as const;
type Shape = keyof typeof EXPECTED;

/** Saves the shape just drawn under `name` (tapping on a tablet), checking its dialog and measurement. */
async function saveShape(page: Page, shape: Shape, name: string, tap = false) {
  const e = EXPECTED[shape];
  const dialog = page.getByRole('dialog', { name: e.dialog === 'region' ? 'New region' : 'New annotation' });
  await expect(dialog).toBeVisible();
  if (e.measured) await expect(dialog.getByTestId('drawn-measurement')).toHaveText(e.measured);
  else await expect(dialog.getByTestId('drawn-measurement')).toHaveCount(0);
  await dialog.getByLabel('Name').fill(name);
  const save = dialog.getByRole('button', {
    name: e.dialog === 'region' ? 'Save region' : 'Save annotation',
  });
  await (tap ? save.tap() : save.click());
  await expect(dialog).toHaveCount(0);
}

/** One finger on the page's touch screen, as the tablet sends it (CDP touch events; no points: lifted). */
async function fingerOn(page: Page) {
  const touch = await page.context().newCDPSession(page);
  return (type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number, y?: number) =>
    touch.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: x === undefined ? [] : [{ x: Math.round(x), y: Math.round(y!) }],
    });
}

/** Deletes what a test drew, so the shared server's slides keep the few regions other specs expect. */
async function removeAll(page: Page, stored: Stored[]) {
  for (const a of stored) expect((await page.request.delete(`/v2/annotations/${a.id}`)).ok()).toBe(true);
}

/** Every shape of `shapes` stored under `${stamp} <shape>` with its geometry type and figure. */
async function expectStored(page: Page, imageId: string, stamp: string, shapes: Shape[]) {
  await expect.poll(async () => (await stored(page, imageId, stamp)).length).toBe(shapes.length);
  const all = await stored(page, imageId, stamp);
  for (const shape of shapes) {
    const a = all.find((x) => x.name === `${stamp} ${shape}`);
    expect(a, shape).toBeDefined();
    expect(a!.content.geometry.type, shape).toBe(EXPECTED[shape].geometry);
    expect(a!.content.properties.shape?.type, shape).toBe(EXPECTED[shape].hint);
  }
  return all;
}

test('a rectangle and a polygon drawn with the mouse are saved, undone and redone', async ({ page }) => {
  await signIn(page);
  const s = await openViewer(page);
  const stamp = `Tools ${Date.now()}`;
  const box = (await page.getByTestId('annotation-layer').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];

  await page.getByRole('button', { name: 'Rectangle' }).hover();
  await expect(page.getByRole('tooltip')).toHaveText('Rectangle (R)');
  await page.getByRole('button', { name: 'Rectangle' }).click();
  await page.mouse.move(cx - 120, cy - 80);
  await page.mouse.down();
  await page.mouse.move(cx - 20, cy - 10, { steps: 6 });
  await expect(page.getByTestId('live-measurement')).toContainText(/^Area .* · Perimeter /);
  await page.mouse.up();
  await saveAs(page, `${stamp} rect`);

  // Polygon: P, four clicks, then a click on the first vertex closes it.
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Polygon' })).toHaveAttribute('aria-pressed', 'true');
  for (const [x, y] of [
    [cx + 20, cy + 20],
    [cx + 140, cy + 30],
    [cx + 120, cy + 120],
    [cx + 30, cy + 100],
    [cx + 21, cy + 21],
  ])
    await page.mouse.click(x, y);
  await saveAs(page, `${stamp} poly`);

  await expect.poll(async () => (await stored(page, s.imageId, stamp)).length).toBe(2);
  const [rect, poly] = ['rect', 'poly'].map(async (k) =>
    (await stored(page, s.imageId, stamp)).find((a) => a.name.endsWith(k))!,
  );
  expect((await rect).content.geometry.type).toBe('Polygon');
  expect((await rect).content.properties.shape?.type).toBe('rectangle');
  expect((await rect).content.geometry.coordinates[0]).toHaveLength(5);
  expect((await poly).content.geometry.coordinates[0]).toHaveLength(5);
  expect((await poly).content.properties.shape).toBeUndefined();

  // Undo removes the polygon, redo brings it back (as a new annotation with the same shape).
  await page.keyboard.press('Control+z');
  await expect
    .poll(async () => (await stored(page, s.imageId, stamp)).map((a) => a.name))
    .toEqual([`${stamp} rect`]);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await stored(page, s.imageId, stamp)).length).toBe(2);
  const again = (await stored(page, s.imageId, stamp)).find((a) => a.name.endsWith('poly'))!;
  expect(again.content.geometry).toEqual((await poly).content.geometry);

  fs.mkdirSync(SHOTS, { recursive: true });
  await page
    .getByRole('toolbar', { name: 'Annotation tools' })
    .screenshot({ path: `${SHOTS}/toolbar-desktop.png` });
  await page.screenshot({ path: `${SHOTS}/viewer-desktop.png` });
});

test('an ellipse, a freehand outline, a polyline, a point and a ruler drawn with the mouse', async ({
  page,
}) => {
  await signIn(page);
  const s = await openViewer(page);
  const stamp = `Mouse ${Date.now()}`;
  const box = (await page.getByTestId('annotation-layer').boundingBox())!;
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const drag = async (points: Array<[number, number]>) => {
    await page.mouse.move(...points[0]);
    await page.mouse.down();
    for (const p of points.slice(1)) await page.mouse.move(p[0], p[1], { steps: 3 });
    await page.mouse.up();
  };

  await page.keyboard.press('e');
  await drag([
    [cx - 220, cy + 40],
    [cx - 100, cy + 120],
  ]);
  await saveShape(page, 'ellipse', `${stamp} ellipse`);

  await page.keyboard.press('f');
  await drag(
    Array.from({ length: 13 }, (_, i): [number, number] => [
      cx + 60 + 50 * Math.cos((i / 12) * 2 * Math.PI),
      cy - 120 + 40 * Math.sin((i / 12) * 2 * Math.PI),
    ]),
  );
  await saveShape(page, 'freehand', `${stamp} freehand`);

  // A polyline: three clicks, then Enter ends it.
  await page.keyboard.press('l');
  for (const [x, y] of [
    [cx - 220, cy - 160],
    [cx - 160, cy - 110],
    [cx - 100, cy - 150],
  ])
    await page.mouse.click(x, y);
  await page.keyboard.press('Enter');
  await saveShape(page, 'polyline', `${stamp} polyline`);

  await page.keyboard.press('o');
  await page.mouse.click(cx + 180, cy + 60);
  await saveShape(page, 'point', `${stamp} point`);

  await page.keyboard.press('m');
  await page.mouse.move(cx + 160, cy + 140);
  await page.mouse.down();
  await page.mouse.move(cx + 240, cy + 170, { steps: 4 });
  await expect(page.getByTestId('live-measurement')).toHaveText(/^Length [\d.,]+ µm$/);
  await page.mouse.up();
  await saveShape(page, 'ruler', `${stamp} ruler`);

  const all = await expectStored(page, s.imageId, stamp, [
    'ellipse',
    'freehand',
    'polyline',
    'point',
    'ruler',
  ]);
  const line = all.find((a) => a.name.endsWith('polyline'))!.content.geometry.coordinates;
  expect(line).toHaveLength(3);
  expect(all.find((a) => a.name.endsWith('ruler'))!.content.geometry.coordinates).toHaveLength(2);
  await removeAll(page, all);
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 800, height: 1280 }, hasTouch: true, isMobile: true });

  test('every tool is a 44 px target', async ({ page }) => {
    await signIn(page);
    await openViewer(page);
    const bar = page.getByRole('toolbar', { name: 'Annotation tools' });
    for (const b of await bar.getByRole('button').all()) {
      const size = (await b.boundingBox())!;
      expect(
        Math.min(size.width, size.height),
        (await b.getAttribute('aria-label')) ?? '',
      ).toBeGreaterThanOrEqual(44);
    }
    await bar.screenshot({ path: `${SHOTS}/toolbar-tablet.png` });
    await page.screenshot({ path: `${SHOTS}/viewer-tablet.png` });
  });

  test('a rectangle drawn with a finger is measured, classified, exported and imported into another slide', async ({
    page,
  }) => {
    await signIn(page);
    const stamp = `Touch ${Date.now()}`;
    const created = await page.request.post('/v2/annotation-classes', {
      data: { annotationClass: { name: `${stamp} Tumor`, color: '#c83232' } },
    });
    expect(created.status()).toBe(200);

    // The smaller slide (1024×768 at 0.5 µm/px): whatever is drawn on it lies inside the larger one.
    const from = await openViewer(page, 'fluorescence');
    await page.getByRole('button', { name: 'Rectangle' }).tap();
    const box = (await page.getByTestId('annotation-layer').boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    // A one-finger drag, as the tablet sends it.
    const finger = await fingerOn(page);
    await finger('touchStart', cx - 90, cy - 60);
    for (let i = 1; i <= 6; i++) await finger('touchMove', cx - 90 + i * 25, cy - 60 + i * 15);
    await expect(page.getByTestId('live-measurement')).toContainText(
      /^Area [\d.,]+ µm² · Perimeter [\d.,]+ µm/,
    );
    // The finger rests before it lifts, as on a real tablet: a lift while moving is a fling, and
    // Chromium spends the next tap on stopping the fling.
    await page.waitForTimeout(200);
    await finger('touchMove', cx - 90 + 6 * 25, cy - 60 + 6 * 15);
    await finger('touchEnd');

    const dialog = page.getByRole('dialog', { name: 'New region' });
    await dialog.getByLabel('Name').fill(`${stamp} region`);
    await dialog.getByRole('combobox', { name: 'Class' }).tap();
    await page.getByRole('option', { name: `${stamp} Tumor` }).tap();
    await expect(dialog.getByRole('combobox', { name: 'Class' })).toHaveValue(`${stamp} Tumor`);
    await dialog.getByRole('button', { name: 'Save region' }).tap();
    await expect(dialog).toHaveCount(0);
    await expect.poll(async () => (await stored(page, from.imageId, stamp)).length).toBe(1);
    const [drawn] = await stored(page, from.imageId, stamp);
    expect(drawn.content.properties.shape?.type).toBe('rectangle');
    expect(drawn.content.properties.classification).toEqual({ name: `${stamp} Tumor`, color: [200, 50, 50] });

    // Export: QuPath's layout, the class on the feature.
    await page.getByRole('button', { name: 'Annotations', exact: true }).tap();
    const panel = page.getByRole('dialog', { name: 'Annotations' });
    await expect(panel.getByText(`${stamp} region`)).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export GeoJSON' }).tap(),
    ]);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as {
      type: string;
      features: ExportedFeature[];
    };
    expect(exported.type).toBe('FeatureCollection');
    const feature = exported.features.find((f) => f.properties.name === `${stamp} region`)!;
    expect(feature.properties.objectType).toBe('annotation');
    expect(feature.properties.classification).toEqual({ name: `${stamp} Tumor`, color: [200, 50, 50] });
    expect(feature.geometry).toEqual(drawn.content.geometry);

    // Import into the other slide: the same shape and class arrive there.
    const to = await openViewer(page, 'brightfield');
    await page.getByRole('button', { name: 'Annotations', exact: true }).tap();
    const toPanel = page.getByRole('dialog', { name: 'Annotations' });
    await toPanel.getByLabel('Import GeoJSON').setInputFiles({
      name: 'from-qupath.geojson',
      mimeType: 'application/geo+json',
      buffer: Buffer.from(JSON.stringify({ type: 'FeatureCollection', features: [feature] })),
    });
    await expect(toPanel.getByTestId('geojson-outcome')).toHaveText('Imported 1 annotation');
    await expect(toPanel.getByText(`${stamp} region`)).toBeVisible();
    const [imported] = await stored(page, to.imageId, stamp);
    expect(imported.content.geometry).toEqual(drawn.content.geometry);
    expect(imported.content.properties.classification).toEqual(drawn.content.properties.classification);
    await page.screenshot({ path: `${SHOTS}/imported-tablet.png` });
  });

  test('a polygon, an ellipse, a freehand outline, a polyline, a point and a ruler drawn with a finger', async ({
    page,
  }) => {
    await signIn(page);
    const s = await openViewer(page, 'fluorescence');
    const stamp = `Finger ${Date.now()}`;
    const box = (await page.getByTestId('annotation-layer').boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const finger = await fingerOn(page);
    const tap = async (x: number, y: number) => {
      await finger('touchStart', x, y);
      await finger('touchEnd');
    };
    // A drag that rests before the finger lifts (a lift while moving is a fling, see above).
    const drag = async (points: Array<[number, number]>) => {
      await finger('touchStart', ...points[0]);
      for (const p of points.slice(1)) await finger('touchMove', ...p);
      await page.waitForTimeout(200);
      await finger('touchMove', ...points[points.length - 1]);
      await finger('touchEnd');
    };
    const pick = (name: string) => page.getByRole('button', { name, exact: true }).tap();

    // A polygon: four taps, then a tap on the first vertex closes it.
    await pick('Polygon');
    for (const [x, y] of [
      [cx - 200, cy - 260],
      [cx - 80, cy - 250],
      [cx - 100, cy - 160],
      [cx - 190, cy - 170],
      [cx - 200, cy - 260],
    ])
      await tap(x, y);
    await saveShape(page, 'polygon', `${stamp} polygon`, true);

    await pick('Ellipse');
    await drag([
      [cx + 40, cy - 260],
      [cx + 100, cy - 220],
      [cx + 160, cy - 170],
    ]);
    await saveShape(page, 'ellipse', `${stamp} ellipse`, true);

    await pick('Draw region');
    await drag(
      Array.from({ length: 13 }, (_, i): [number, number] => [
        cx - 130 + 60 * Math.cos((i / 12) * 2 * Math.PI),
        cy + 40 * Math.sin((i / 12) * 2 * Math.PI),
      ]),
    );
    await saveShape(page, 'freehand', `${stamp} freehand`, true);

    // A polyline: three taps, then the last vertex tapped again ends it.
    await pick('Polyline');
    for (const [x, y] of [
      [cx + 40, cy - 40],
      [cx + 100, cy + 20],
      [cx + 160, cy - 30],
      [cx + 160, cy - 30],
    ])
      await tap(x, y);
    await saveShape(page, 'polyline', `${stamp} polyline`, true);

    await pick('Point');
    await tap(cx - 120, cy + 160);
    await saveShape(page, 'point', `${stamp} point`, true);

    await pick('Ruler');
    await drag([
      [cx + 40, cy + 140],
      [cx + 100, cy + 170],
      [cx + 160, cy + 200],
    ]);
    await saveShape(page, 'ruler', `${stamp} ruler`, true);

    const all = await expectStored(page, s.imageId, stamp, [
      'polygon',
      'ellipse',
      'freehand',
      'polyline',
      'point',
      'ruler',
    ]);
    expect(all.find((a) => a.name.endsWith('polygon'))!.content.geometry.coordinates[0]).toHaveLength(5);
    expect(all.find((a) => a.name.endsWith('polyline'))!.content.geometry.coordinates).toHaveLength(3);
    await page.screenshot({ path: `${SHOTS}/shapes-tablet.png` });
    await removeAll(page, all);
  });
});
