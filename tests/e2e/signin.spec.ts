// Sign-in end to end: the printed credentials reach /dashboard; the app then opens offline from the
// service worker's cache and the local store; signed-out and signed-in redirects; a wrong password.
import { expect, test } from '@playwright/test';
import { errorText } from '../../src/api/errors';
import { AuthText } from '../../src/api/messages';

import { admin } from './helpers';

test('the printed URL and credentials sign in, and the app reopens offline', async ({ page, context }) => {
  expect(process.env.E2E_PRINTED_URL).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel('E-mail').fill(admin().email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/recent-activity$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByText('Welcome, Administrator · Tessera Platform')).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard.png' });

  // The service worker has precached the shell once it is active.
  await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return reg.active?.state;
  });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('Welcome, Administrator · Tessera Platform')).toBeVisible();
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/dashboard-offline.png' });
  await context.setOffline(false);

  // Any other path goes to the dashboard when signed in.
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard\/recent-activity$/);

  // Log out returns to sign-in, and the session does not come back on reload.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.reload();
  await expect(page).toHaveURL(/\/signin$/);
});

test('signed out, every path goes to /signin, and a wrong password says so', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel('E-mail').fill(admin().email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('definitely-wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText(errorText('INVALID_CREDENTIALS'));
  await page.screenshot({ path: 'test-results/signin-error.png' });
});

test('forgot password answers without telling whether the account exists', async ({ page }) => {
  await page.goto('/fp');
  await page.getByLabel('E-mail').fill('nobody@example.org');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(AuthText.resetSent)).toBeVisible();
});

test('a deep link opened signed out comes back after sign-in (continue)', async ({ page }) => {
  await page.goto('/account-settings/permissions?tab=x');
  await expect(page).toHaveURL(/\/signin\?continue=%2Faccount-settings%2Fpermissions%3Ftab%3Dx$/);
  await page.getByLabel('E-mail').fill(admin().email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/account-settings\/permissions\?tab=x$/);
  await expect(page.getByRole('cell', { name: 'superAdmin' })).toBeVisible();
});
