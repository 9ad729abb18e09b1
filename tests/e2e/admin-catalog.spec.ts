// Platform administrators manage organs, pipelines and predictors in the admin area (§4):
// the super administrator adds an organ and a pipeline on it, and deleting the organ still in use is
// refused with the server's reason. E2E_SHOTS=dir also saves the three screens at two widths.
import { expect, test, type Page } from '@playwright/test';
import { shootBothWidths, signIn } from './helpers';

const stamp = Date.now();
const shoot = (page: Page, name: string) => shootBothWidths(page, name);

test('the super administrator manages organs, pipelines and predictors', async ({ page }) => {
  test.setTimeout(process.env.E2E_SHOTS ? 240_000 : 120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const organ = `Fin ${stamp}`;
  await page.goto('/administrator/organs');
  await page.getByRole('button', { name: 'New organ' }).click();
  const dialog = page.getByRole('dialog', { name: 'New organ' });
  await dialog.getByRole('textbox', { name: /^Animal/ }).fill('Zebrafish');
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(organ);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  const row = page.getByRole('row').filter({ hasText: organ });
  await expect(row).toContainText('Zebrafish', { timeout: 20_000 });
  await shoot(page, 'admin-organs');

  await page.getByRole('tab', { name: 'Pipelines' }).click();
  await expect(page).toHaveURL(/\/administrator\/pipelines/);
  const pipeline = `Fin stain ${stamp}`;
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const pd = page.getByRole('dialog', { name: 'New pipeline' });
  await pd.getByRole('textbox', { name: /^Name/ }).fill(pipeline);
  await pd.getByLabel('Organ', { exact: true }).click();
  await page.getByRole('option', { name: `${organ} (Zebrafish)` }).click();
  await pd.getByRole('button', { name: 'Save' }).click();
  await expect(pd).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole('row').filter({ hasText: pipeline })).toContainText(organ, { timeout: 20_000 });
  await shoot(page, 'admin-pipelines');

  await page.getByRole('tab', { name: 'Organs' }).click();
  await page.getByRole('row').filter({ hasText: organ }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This organ is still used by slides, pipelines or predictors',
  );

  await page.getByRole('tab', { name: 'Predictors' }).click();
  await expect(page).toHaveURL(/\/administrator\/predictors/);
  await expect(page.getByRole('button', { name: 'New predictor' })).toBeEnabled();
  await shoot(page, 'admin-predictors');
});
