// Keeping the session in Chromium with the page clock moved: refreshes planned by the server's clock
// with the device 20 minutes ahead or behind; three tabs through two token expiries (one refresh for
// all); a device reopened offline after ten days keeps its data readable, sends nothing until its user
// signs in again (another user signing in there meanwhile sees none of it), then sends the queue.
import fs from 'node:fs';
import path from 'node:path';
import { expect, request, test, type BrowserContext } from '@playwright/test';
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

/** A second user of the administrator's organization, invited and activated through the API. */
async function seedUser(baseURL: string): Promise<{ email: string; password: string }> {
  const email = `second-${Date.now()}@lab.test`;
  const password = 'second-user-password';
  const api = await request.newContext({ baseURL });
  expect((await api.post('/v2/auth/login', { data: admin() })).ok()).toBe(true);
  expect((await api.post('/v2/users', { data: { user: { email, name: 'Second User' } } })).ok()).toBe(true);
  const dir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  let token: string | undefined;
  await expect
    .poll(() => {
      for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
        const raw = fs.readFileSync(path.join(dir, file), 'utf8');
        if (!raw.includes(`To: ${email}`)) continue;
        token = /register\?token=([\w.-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1];
      }
      return token;
    })
    .toBeTruthy();
  expect((await api.post('/v2/auth/activate-user', { data: { token, password } })).ok()).toBe(true);
  await api.dispose();
  return { email, password };
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
  // A loaded machine: the first tab's service worker is still fetching the app for offline use.
  for (const tab of tabs.slice(1)) {
    await tab.goto('/dashboard');
    await expect(tab.getByRole('heading', { name: 'Dashboard' })).toBeVisible({ timeout: 60_000 });
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
  baseURL,
}) => {
  const second = await seedUser(baseURL!);
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
  await page.waitForTimeout(1_500);
  expect(await idbCount(page, 'outbox')).toBe(1);
  await expect(cardNamed(page, name).getByText('Pending')).toBeVisible();

  // Someone else signs in on this device: none of the first user's data, their queue kept unsent.
  const signInAs = async (who: { email: string; password: string }) => {
    await page.getByLabel('E-mail').fill(who.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard/);
  };
  await banner.getByRole('button', { name: Session.signInAgain }).click();
  await expect(page).toHaveURL(/\/signin\?continue=/);
  await expect(page.getByLabel('E-mail')).toHaveValue(admin().email);
  await expect(page.getByRole('button', { name: Session.keepWorkingHere })).toBeVisible();
  await signInAs(second);
  await expect(page.getByRole('heading', { name: 'Studies' })).toBeVisible();
  await expect(cardNamed(page, name)).toHaveCount(0);
  expect(await idbCount(page, 'outbox')).toBe(1);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/signin/);

  // The first user signs in again: the queue goes out.
  await signInAs(admin());
  await expect.poll(async () => (await studiesNamed(page, name)).length, { timeout: 20_000 }).toBe(1);
  await page.goto('/dashboard/studies');
  await expect(cardNamed(page, name)).toBeVisible();
  await expect(cardNamed(page, name).getByText('Pending')).toBeHidden();
  await context.close();
});
