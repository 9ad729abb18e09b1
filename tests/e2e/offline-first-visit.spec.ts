// A network drop in the first seconds of a first visit, before the service worker has installed its
// precache (its requests are blocked here, so it is not in control): opening a page whose code has not loaded
// keeps the tab in the app with 'This page is not available offline yet' (no reload to the browser's
// error page), and the app says it is not ready offline. Once the worker has installed every page's
// code and controls the page, the app says so, and pages never opened open offline.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import { cutServiceWorker } from './offline-helpers';

async function readinessText(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Sync status' }).click();
  const text = (await page.getByTestId('offline-readiness').textContent()) ?? '';
  await page.keyboard.press('Escape');
  return text;
}

test('a first visit cut off before the service worker is ready stays in the app', async ({
  page,
  context,
}) => {
  // The fixture's context is new: no service worker yet. Its precache requests fail as if the network
  // had dropped for it first.
  const worker = await cutServiceWorker(context);
  await signIn(page);
  await expect.poll(() => worker.blocked()).toBeGreaterThan(0);
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  expect(await readinessText(page)).toBe('Getting this device ready to work offline…');

  // The same document throughout: a full reload would drop this mark (or end on chrome-error://).
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await context.setOffline(true);
  await expect(page.getByText(/still getting ready to work offline/)).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page.getByText('This page is not available offline yet')).toBeVisible();
  await expect(page).toHaveURL(/\/account-settings\/basic-information$/);
  await expect(page.getByRole('button', { name: 'Sync status' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeDisabled();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );

  // Back online, the worker installs (the app asks again) and takes control: now the app says so.
  await worker.restore();
  await context.setOffline(false);
  await page.evaluate(async () => {
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
  });
  await expect.poll(() => readinessText(page)).toBe('This device is ready to work offline');
  // Every built file is in the precache, each route's code included.
  const dist = process.env.DIST_DIR || 'dist';
  const built = fs.readdirSync(path.join(dist, 'assets')).filter((f) => !f.endsWith('.map'));
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      if (name.includes('precache'))
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
    return urls;
  });
  expect(built.filter((file) => !cached.includes(`/assets/${file}`))).toEqual([]);

  // Offline again: a page never opened (and the one that failed) open from this device.
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Account Administrator' }).click();
  await expect(page).toHaveURL(/\/administrator\/organization/);
  await expect(page.getByTestId('page-unavailable')).toBeHidden();
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Basic information' })).toBeVisible();
  await expect(page.getByText(/keeps working from this device/)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
    true,
  );
  await context.setOffline(false);
});
