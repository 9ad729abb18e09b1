// The printable reports (§2.10, §9). Each report waits for its pictures, then prints once
// (window.print is recorded here) and closes; each renders through Chromium's print-to-PDF on A4 and
// on Letter with its paper size, and its printed look is kept as a picture (test attachments).
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { encodeImageIds, reportPaths } from '../../src/app/reports/paths';
import { signIn } from './helpers';
import type { SeededSlide } from './seed-slides';

const slides = () =>
  Object.values(JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>).sort((a, b) =>
    a.simpleId.localeCompare(b.simpleId),
  );

/** Points per page side in Chromium's PDFs (1/72 in). */
const SIZES = { A4: [595, 842], Letter: [612, 792] } as const;

async function processed(page: Page, imageId: string) {
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/v2/images/${imageId}`)).json()) as { result: { status: string } })
          .result.status,
      { timeout: 45_000 },
    )
    .toBe('completed');
}

/** The pages of a PDF and the size of the first, read from its page objects. */
function pdfPages(pdf: Buffer): { count: number; size: [number, number] } {
  const text = pdf.toString('latin1');
  const count = (text.match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
  const box = /\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(text);
  return { count, size: [Number(box?.[1] ?? 0), Number(box?.[2] ?? 0)] };
}

test('every report waits for its pictures, prints once, and renders to A4 and Letter PDFs', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const [first, second] = slides();
  await processed(page, first.imageId);
  await processed(page, second.imageId);
  const study = await page.request.post('/v2/studies', {
    data: {
      study: { name: `Report study ${Date.now()}`, scanGroupIds: [first.scanGroupId, second.scanGroupId] },
    },
  });
  expect(study.status()).toBe(200);
  const studyId = ((await study.json()) as { result: { id: string } }).result.id;
  const group = crypto.randomUUID();
  for (const [s, status] of [
    [first, 'accepted'],
    [second, 'flagged'],
  ] as const) {
    // The admin's own QC results (a QC request names someone else).
    const done = await page.request.post('/v2/reviews', {
      data: {
        review: {
          reviewGroupUUID: group,
          imageId: s.imageId,
          type: 'qc',
          status,
          comment: status === 'flagged' ? 'Tissue fold' : '',
        },
      },
    });
    expect(done.status()).toBe(200);
  }

  const reports: [string, string, RegExp][] = [
    ['slide', `/reports/scangroup-report/${first.scanGroupId}`, new RegExp(first.simpleId)],
    ['study', `/reports/study-report/${studyId}?numberOfAssays=0`, /Report study/],
    [
      'qc-images',
      `/reports/quality-check-image-ids/${encodeImageIds([first.imageId, second.imageId])}`,
      /Passed/,
    ],
    ['qc-group', `/reports/quality-check/${group}`, /Tissue fold/],
  ];
  for (const [name, url, shows] of reports) {
    const report = await context.newPage();
    await report.addInitScript(() => {
      const w = window as unknown as { printed: number; picturesDone: boolean[]; closes: number };
      w.printed = 0;
      w.closes = 0;
      w.picturesDone = [];
      window.print = () => {
        w.printed++;
        const pictures = [...document.querySelectorAll<HTMLImageElement>('[data-testid="report"] img')];
        w.picturesDone.push(pictures.length > 0 && pictures.every((img) => img.complete));
      };
      window.close = () => void w.closes++;
    });
    await report.goto(url);
    await expect(report.getByTestId('report')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
    await expect(report.getByTestId('report')).toContainText(shows);
    const state = () =>
      report.evaluate(() => {
        const w = window as unknown as { printed: number; picturesDone: boolean[]; closes: number };
        return { printed: w.printed, picturesDone: w.picturesDone, closes: w.closes };
      });
    await expect.poll(async () => (await state()).printed).toBe(1);
    const after = await state();
    expect(after.closes).toBe(1);
    // The slide and QC reports show thumbnails: printing waited for them.
    if (name !== 'study') expect(after.picturesDone).toEqual([true]);

    for (const paper of ['A4', 'Letter'] as const) {
      await report.emulateMedia({ media: 'screen' });
      await report.getByText(paper, { exact: true }).click();
      await expect(report.getByTestId('report')).toHaveAttribute('data-paper', paper);
      await report.emulateMedia({ media: 'print' });
      const file = test.info().outputPath(`${name}-${paper}.pdf`);
      const pdf = await report.pdf({ path: file, preferCSSPageSize: true, printBackground: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const { count, size } = pdfPages(pdf);
      expect(count).toBeGreaterThanOrEqual(1);
      expect(Math.round(size[0])).toBeCloseTo(SIZES[paper][0], -1);
      expect(Math.round(size[1])).toBeCloseTo(SIZES[paper][1], -1);
      expect(fs.statSync(file).size).toBeGreaterThan(5_000);
    }
    // What the printed page looks like, as a picture.
    await report.screenshot({ path: test.info().outputPath(`${name}-print.png`), fullPage: true });
    await report.close();
  }
});

test('Print a Report from a slide card opens the slide report in a new tab', async ({ page, context }) => {
  await context.addInitScript(() => {
    window.print = () => undefined;
    window.close = () => undefined;
  });
  await signIn(page);
  const [first] = slides();
  await page.goto('/dashboard/slides');
  await page.getByRole('button', { name: `Slide menu ${first.simpleId}` }).click();
  await page.getByRole('menuitem', { name: 'Print' }).click();
  const dialog = page.getByRole('dialog', { name: 'Print a Report' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Slide Report')).toBeVisible();
  await expect(dialog.getByText('Label Report')).toBeVisible();
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    dialog.getByRole('button', { name: 'Print Slide Report' }).click(),
  ]);
  await expect(tab).toHaveURL(new RegExp(`/reports/scangroup-report/${first.scanGroupId}$`));
  await expect(tab.getByTestId('report')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await expect(tab.getByTestId('report')).toContainText(first.simpleId);
});

test('Print a Report from a study card offers the study and QC reports of its slides', async ({
  page,
  context,
}) => {
  await context.addInitScript(() => {
    window.print = () => undefined;
    window.close = () => undefined;
  });
  await signIn(page);
  const [first] = slides();
  const made = async (name: string, scanGroupIds: string[]) => {
    const res = await page.request.post('/v2/studies', { data: { study: { name, scanGroupIds } } });
    expect(res.status()).toBe(200);
  };
  await made('Print dialog with a slide', [first.scanGroupId]);
  await made('Print dialog without slides', []);
  await page.goto('/dashboard/studies');

  const open = async (name: string) => {
    await page.getByRole('button', { name: `Study menu ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Print' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print a Report' });
    await expect(dialog).toBeVisible();
    return dialog;
  };
  // No slides: nothing to print, so the menu's Print is disabled.
  await page.getByRole('button', { name: 'Study menu Print dialog without slides' }).click();
  await expect(page.getByRole('menuitem', { name: 'Print' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Print' })).toBeHidden();

  // One slide: the QC report lists that slide's image, read from the local store when the dialog opens.
  const dialog = await open('Print dialog with a slide');
  await expect(dialog.getByRole('button', { name: 'Print Study Report' })).toBeEnabled();
  await expect(dialog.getByRole('button', { name: 'Print QC Report' })).toBeEnabled();
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    dialog.getByRole('button', { name: 'Print QC Report' }).click(),
  ]);
  await tab.waitForURL(/\/reports\/quality-check-image-ids\//);
  expect(new URL(tab.url()).pathname).toBe(reportPaths.qcImages([first.imageId]));
});
