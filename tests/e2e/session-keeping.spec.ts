// Keeping the session in Chromium with the page clock moved: refreshes planned by the server's clock
// with the device 20 minutes ahead or behind; three tabs through two token expiries (one refresh for
// all); a device reopened offline after ten days keeps its data readable, sends nothing until its user
// signs in again, then sends the queue.
import { expect, test, type BrowserContext } from '@playwright/test';
import { Session } from '../../src/api/messages';
import { admin, signIn } from './helpers';
import { cardNamed, createStudyInUi, idbCount, openStudies, studiesNamed } from './offline-helpers';

const MINUTE = 60_000;

/** Every token refresh the browser sends (pages and service worker alike). */
function refreshesOf(context: BrowserContext): number[] {
  const seen: number[] = [];
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/v2/auth/refresh')
      seen.push(Date.now());
  });
  return seen;
}

/** Cuts the network for the pages and for the service worker's own requests. */
async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/v2/**', (route) => route.abort('internetdisconnected'));
}

async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute('**/v2/**');
  await context.setOffline(false);
}

test('a device clock 20 minutes ahead or behind: the refresh comes once, when the server clock says', async ({
  browser,
}) => {
  for (const skewMinutes of [20, -20]) {
    const context = await browser.newContext();
    await context.clock.install({ time: Date.now() + skewMinutes * MINUTE });
    const page = await context.newPage();
    const refreshes = refreshesOf(context);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await page.waitForTimeout(2_000);
    expect(refreshes, `clock ${skewMinutes} min: no refresh right after signing in`).toHaveLength(0);

    // 14.5 minutes on, the 15-minute access token is due by the server's clock: one refresh.
    await context.clock.fastForward(14.5 * MINUTE);
    await expect.poll(() => refreshes.length, { message: `clock ${skewMinutes} min` }).toBe(1);
    await page.waitForTimeout(2_000);
    expect(refreshes).toHaveLength(1);
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await context.close();
  }
});

test('three tabs stay signed in past two token expiries, one refresh each time', async ({ browser }) => {
  const context = await browser.newContext();
  await context.clock.install();
  const tabs = [await context.newPage(), await context.newPage(), await context.newPage()];
  await signIn(tabs[0]);
  for (const tab of tabs.slice(1)) {
    await tab.goto('/dashboard');
    await expect(tab.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  }
  const refreshes = refreshesOf(context);
  for (const expected of [1, 2]) {
    await context.clock.fastForward(15 * MINUTE);
    await expect.poll(() => refreshes.length).toBe(expected);
    // The other tabs take the news before the clock moves again.
    await tabs[0].waitForTimeout(1_500);
  }
  expect(refreshes).toHaveLength(2);
  for (const tab of tabs) {
    await expect(tab).toHaveURL(/\/dashboard/);
    await expect(tab.getByText(Session.refreshFailed)).toHaveCount(0);
    expect(await tab.evaluate(() => fetch('/v2/auth/me').then((r) => r.status))).toBe(200);
  }
  await context.close();
});

test('reopened offline ten days later: the data is readable, nothing is sent until the user signs in again', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.clock.install();
  const page = await context.newPage();
  await openStudies(page);
  const name = `Long absence ${Date.now()}`;
  await goOffline(context);
  await createStudyInUi(page, name);
  await expect(cardNamed(page, name).getByText('Pending')).toBeVisible();

  // Ten days on: the sign-in's seven days are over and the browser has dropped its expired cookies.
  await context.clearCookies();
  await context.clock.setSystemTime(Date.now() + 10 * 24 * 60 * MINUTE);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/studies/);
  await expect(cardNamed(page, name).getByText('Pending')).toBeVisible();
  await expect(page.getByText(Session.signInToSync)).toBeVisible();

  await goOnline(context);
  const banner = page.getByRole('status').filter({ hasText: Session.signInToSync });
  await expect(banner.getByRole('button', { name: Session.signInAgain })).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(await idbCount(page, 'outbox')).toBe(1);
  await expect(cardNamed(page, name).getByText('Pending')).toBeVisible();

  await banner.getByRole('button', { name: Session.signInAgain }).click();
  await expect(page).toHaveURL(/\/signin\?continue=/);
  await expect(page.getByLabel('E-mail')).toHaveValue(admin().email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/studies/);
  await expect(cardNamed(page, name).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect(await studiesNamed(page, name)).toHaveLength(1);
  await context.close();
});
