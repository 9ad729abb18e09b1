// Shared steps of the end-to-end tests: sign in as the administrator the server printed.
import fs from 'node:fs';
import path from 'node:path';
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

/** The activation token e-mailed to `email` (mail is written to DATA_DIR/mail without SMTP). */
export async function activationToken(email: string): Promise<string> {
  const mailDir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  let token = '';
  await expect
    .poll(() => {
      for (const file of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
        const text = fs
          .readFileSync(path.join(mailDir, file), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        if (text.includes(`To: ${email}`))
          token = decodeURIComponent(/\/register\?token=(\S+)/.exec(text)?.[1] ?? '');
      }
      return token;
    })
    .not.toBe('');
  return token;
}
