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

/**
 * With E2E_SHOTS=<folder>, saves the page at desktop width and at `tablet` size (for looking at
 * them, never compared), then restores 1440×900. Without it, does nothing.
 */
export async function shootBothWidths(
  page: Page,
  name: string,
  { tablet = { width: 820, height: 1180 }, fullPage = true } = {},
): Promise<void> {
  const shots = process.env.E2E_SHOTS;
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  for (const [label, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['tablet', tablet],
  ] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300); // layout settles after a resize; only for the picture
    await page.screenshot({ path: path.join(shots, `${name}-${label}.png`), fullPage });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
