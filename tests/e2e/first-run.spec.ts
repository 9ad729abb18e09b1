// A brand-new install, on a server of its own (empty DATA_DIR, no demo lab): the administrator signs
// in with the printed password, is asked to change it, sees the setup checklist, and prints a slide
// label from the default organ catalogue, well within a minute. E2E_SHOTS=<folder> saves screenshots.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { EmptyPickerText, FirstRunText } from '../../src/api/first-run';
import { LABEL_DIALOG_TITLE } from '../../src/app/orders/LabelDialog';
import { OrdersText } from '../../src/app/orders/texts';
import { shootBothWidths } from './helpers';
import { firstStartPrinted, freePort, readPrinted, startServer, stopServer } from './server-process';

const shoot = (page: Page, name: string) =>
  shootBothWidths(page, name, { tablet: { width: 800, height: 1280 }, fullPage: false });

test('a fresh install prints its first slide label within a minute', async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-first-run-'));
  const port = await freePort();
  const server = startServer(port, dataDir);
  try {
    const printed = await readPrinted(server, firstStartPrinted);
    const base = `http://localhost:${port}`;
    const started = Date.now();

    await page.goto(`${base}/signin`);
    await page.getByLabel('E-mail').fill(printed.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(printed.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByTestId('password-prompt')).toContainText(FirstRunText.changePassword);
    await expect(page.getByTestId('password-prompt').getByRole('link')).toHaveAttribute(
      'href',
      '/account-settings/basic-information',
    );

    // The checklist: organs are there from the start, pipelines are still to do.
    await page.getByRole('button', { name: FirstRunText.checklist }).click();
    const checklist = page.getByTestId('setup-checklist');
    await expect(checklist.getByRole('link', { name: `${FirstRunText.organsStep} (done)` })).toBeVisible();
    await expect(
      checklist.getByRole('link', { name: FirstRunText.pipelinesStep, exact: true }),
    ).toBeVisible();
    await expect(checklist.getByRole('button', { name: FirstRunText.loadDemo })).toBeVisible();
    await shoot(page, 'first-run-checklist');
    await page.keyboard.press('Escape');

    // A label from the default catalogue, and its ZPL.
    await page.goto(`${base}/orders/slides/new`);
    await page.getByRole('button', { name: OrdersText.newLabels }).click();
    const dialog = page.getByRole('dialog', { name: LABEL_DIALOG_TITLE });
    await dialog.getByRole('combobox', { name: 'Animal' }).click();
    await page.getByRole('option', { name: 'Human', exact: true }).click();
    await dialog.getByRole('combobox', { name: 'Organ' }).click();
    await page.getByRole('option', { name: 'Liver', exact: true }).click();
    await expect(dialog.getByText(EmptyPickerText.organsFix)).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    const id = page.getByTestId('label-row').first().getByTestId('label-id');
    await expect(id).toHaveText(/^[0-9A-Z]{8}$/);
    const simpleId = (await id.textContent())!;
    await page.getByRole('checkbox', { name: `Select ${simpleId}` }).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: OrdersText.downloadZpl }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`label-${simpleId}.zpl`);
    expect(fs.readFileSync((await download.path())!, 'utf8')).toMatch(/^\^XA/);
    expect(Date.now() - started).toBeLessThan(60_000);
    await shoot(page, 'first-run-labels');

    // No pipeline yet: the order page's empty picker says where the administrator adds one.
    await page.goto(`${base}/orders/new`);
    await expect(page.getByRole('link', { name: EmptyPickerText.pipelinesFix })).toHaveAttribute(
      'href',
      '/administrator/pipelines',
    );
    await shoot(page, 'first-run-orders');
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
