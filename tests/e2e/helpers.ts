// Shared steps of the end-to-end tests: sign in as the administrator the server printed.
import { expect, type Page } from '@playwright/test';

export const admin = () => ({
  email: process.env.E2E_ADMIN_EMAIL!,
  password: process.env.E2E_ADMIN_PASSWORD!,
});

export async function signIn(page: Page, who = admin()): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
}
