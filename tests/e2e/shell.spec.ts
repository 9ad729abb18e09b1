// The signed-in shell (spec §2.2–§2.5, §2.10): routes and their redirects, the order menu, the help
// button's Report Issue dialog, the settings menu.
import { expect, test } from '@playwright/test';
import { Report } from '../../src/api/messages';
import { signIn } from './helpers';

test.beforeEach(async ({ page }) => signIn(page));

test('routes redirect to their defaults', async ({ page }) => {
  for (const [from, to] of [
    ['/dashboard', '/dashboard/recent-activity'],
    ['/orders', '/orders/slides/new'],
    ['/orders/anything/else', '/orders/slides/new'],
    ['/account-settings', '/account-settings/basic-information'],
    ['/administrator', '/administrator/organization'],
    ['/administrator/pictor-admin/create', '/new-organization'],
  ]) {
    await page.goto(from);
    await expect(page).toHaveURL(new RegExp(`${to}$`));
  }
});

test('the order menu is headed Slide Management and leads to its pages', async ({ page }) => {
  await page.getByRole('button', { name: 'Order Stains' }).click();
  await expect(page.getByText('Slide Management')).toBeVisible();
  await page.getByRole('menuitem', { name: 'Pending Orders' }).click();
  await expect(page).toHaveURL(/\/orders\/pending$/);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await page.getByRole('button', { name: 'Order Stains' }).click();
  await expect(page.getByRole('menuitem', { name: 'Generate Slide Labels' })).toBeEnabled();
});

test('the help button opens Report Issue with its counter and rules', async ({ page }) => {
  await page.getByRole('button', { name: 'Help' }).click();
  await expect(page).toHaveURL(/[?&]bugreport/);
  const dialog = page.getByRole('dialog', { name: Report.title });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('0/2000')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeDisabled();
  await dialog.getByPlaceholder(Report.placeholder).fill('The slide list does not load on my tablet.');
  await expect(dialog.getByText('42/2000')).toBeVisible();
  await page.screenshot({ path: 'test-results/report-issue.png' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/bugreport/);
});

test('the settings menu offers account pages and Create New Team', async ({ page }) => {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page).toHaveURL(/\/account-settings\/basic-information$/);
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Create New Team' }).click();
  await expect(page).toHaveURL(/\/administrator\/teams\/create$/);
});
