// Issue 9 "Done when": a QC reviewer on a tablet-sized, touch viewport requests a QC review with the
// Request Review dialog, then — offline — passes, fails and flags images in two review groups; a
// colleague meanwhile gives one of those images another result first. On reconnecting the decisions
// reach the server, the conflicting one is rolled back and the reviewer is told, and the groups'
// counts and the QC report show the decisions.
import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Review } from '../../src/api/entities';
import { ReviewQcText } from '../../src/api/messages';
import { activationToken, admin, signIn } from './helpers';
import { waitForFirstSync } from './offline-helpers';
import type { SeededSlide } from './seed-slides';

const slides = () => Object.values(JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>);

test.use({ viewport: { width: 820, height: 1180 }, hasTouch: true });

/** A second QC reviewer in the admin's organization, invited and activated through the API. */
async function colleague(page: Page): Promise<{ api: APIRequestContext; name: string }> {
  const stamp = Date.now();
  const email = `qc-${stamp}@lab.test`;
  const name = `Colleague ${stamp}`;
  const invited = await page.request.post('/v2/users', {
    data: { user: { email, name, enabledPolicies: ['manageOrganizationQC'] } },
  });
  expect(invited.status()).toBe(200);
  const token = await activationToken(email);
  const password = `pw-${stamp}-colleague`;
  // A context of its own: activation signs the new user in, which must not replace our session.
  const anon = await request.newContext({ baseURL: test.info().project.use.baseURL });
  expect((await anon.post('/v2/auth/activate-user', { data: { token, password } })).status()).toBe(200);
  const login = await anon.post('/v2/auth/login', { data: { email, password } });
  const accessToken = ((await login.json()) as { accessToken: { token: string } }).accessToken.token;
  await anon.dispose();
  const api = await request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${accessToken}` },
  });
  return { api, name };
}

async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
  });
}

const card = (page: Page, group: string) =>
  page.locator(`[data-testid="review-card"][data-group="${group}"]`);

test('a QC reviewer decides offline on a tablet; a conflicting earlier decision wins and is shown', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await controlled(page);
  await waitForFirstSync(page);
  const me = (await (await page.request.get('/v2/auth/me')).json()) as { user: { id: string } };
  const [first, second] = slides().sort((a, b) => a.simpleId.localeCompare(b.simpleId));
  const other = await colleague(page);

  // Request a QC review of both slides from the dialog (?request-review).
  await page.goto('/dashboard/reviews-and-qc');
  await expect(page.getByRole('heading', { name: 'Active Reviews' })).toBeVisible();
  await page.getByRole('button', { name: 'Request Review' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request Review' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/request-review/);
  await dialog.getByText('Quality check (QC)').click();
  const request = dialog.getByRole('button', { name: 'Request Review' });
  await expect(request).toBeDisabled();
  for (const s of [first, second]) {
    await dialog.getByLabel('Slides').click();
    await page.getByRole('option', { name: new RegExp(s.simpleId) }).click();
  }
  await page.keyboard.press('Tab'); // leaves the slides list, which closes it
  await dialog.getByLabel('Reviewer 1', { exact: true }).click();
  await page.getByRole('option', { name: new RegExp(admin().email.replace(/[.+]/g, '\\$&')) }).click();
  await expect(dialog.getByText('2 reviews will be requested.')).toBeVisible();
  await request.click();
  await expect(page.getByText('Review Requested')).toBeVisible();
  await expect(page.getByText(/received your review request\./)).toBeVisible();
  await expect(dialog).toBeHidden();
  const g1Card = page.getByTestId('review-card').filter({ hasText: 'Quality check · 2 images' }).first();
  await expect(g1Card).toBeVisible();
  const g1 = (await g1Card.getAttribute('data-group'))!;

  // A second QC group over the same images, requested through the API.
  const g2 = crypto.randomUUID();
  const g2Reviews: Review[] = [];
  for (const s of [first, second]) {
    const res = await page.request.post('/v2/reviews', {
      data: { review: { reviewGroupUUID: g2, imageId: s.imageId, reviewerId: me.user.id, type: 'qc' } },
    });
    expect(res.status()).toBe(200);
    g2Reviews.push(((await res.json()) as { result: Review }).result);
  }
  await expect(card(page, g2)).toBeVisible({ timeout: 20_000 });
  // Every review of both groups is on the device before the network goes.
  await expect(card(page, g1).getByText('Pending Review: 2')).toBeVisible();
  await expect(card(page, g2).getByText('Pending Review: 2')).toBeVisible();

  // Offline: pass then fail in the first group, one tap each.
  await context.setOffline(true);
  await card(page, g1).getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/review/${g1}/0$`));
  await expect(page.getByText('Image 1 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Pass' }).tap();
  await expect(page.getByText('Image 2 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Fail' }).tap();
  await expect(page.getByTestId('review-status')).toHaveText('Failed');
  await page.getByRole('button', { name: 'Previous' }).tap();
  await expect(page.getByTestId('review-status')).toHaveText('Passed');
  await expect(page.getByText('Passed: 1')).toBeVisible();

  // Still offline, to the second group by the app's own links: flag with a reason, then pass.
  await page.getByRole('link', { name: 'Return to Dashboard' }).click();
  await page.getByRole('tab', { name: 'Reviews & QC' }).click();
  await card(page, g2).getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/review/${g2}/0$`));
  // An annotation made offline counts at once and is sent with the rest.
  const note = `Fold at the left edge ${Date.now()}`;
  await page.getByLabel('Annotation text').fill(note);
  await page.getByRole('button', { name: 'Add annotation' }).tap();
  await expect(page.getByTestId('annotation-count')).toHaveText('1');
  await page.getByText('Tissue fold').tap();
  await page.getByRole('button', { name: 'Flag' }).tap();
  await expect(page.getByText('Image 2 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Pass' }).tap();
  await expect(page.getByTestId('review-status')).toHaveText('Passed');

  // Meanwhile a colleague, online, fails that second image first.
  const copy = g2Reviews.find((r) => r.imageId === second.imageId)!;
  const theirs = await other.api.patch(`/v2/reviews/${copy.id}`, {
    data: { review: { status: 'rejected', updatedAt: copy.updatedAt } },
  });
  expect(theirs.status()).toBe(200);

  // Back online: the earlier decision wins; ours is rolled back and we are told.
  await context.setOffline(false);
  const notice = page.getByTestId('qc-conflict');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText(ReviewQcText.decisionRolledBack);
  await expect(notice).toContainText(`Image 2: ${ReviewQcText.decidedFirst(other.name, 'Failed')}`);
  await expect(page.getByTestId('review-status')).toHaveText('Failed', { timeout: 30_000 });

  // The server holds the surviving decisions.
  const onServer = async (group: string) =>
    ((await (await page.request.get(`/v2/reviews/groups?ids=${group}`)).json()) as { result: object[] })
      .result[0];
  await expect.poll(() => onServer(g1)).toMatchObject({ total: 2, accepted: 1, rejected: 1, pending: 0 });
  await expect.poll(() => onServer(g2)).toMatchObject({ total: 2, flagged: 1, rejected: 1, pending: 0 });

  await expect
    .poll(async () => {
      const res = await page.request.get(`/v2/annotations?imageId=${first.imageId}`);
      return JSON.stringify(await res.json());
    })
    .toContain(note);

  // The group cards count them (both groups are complete: the Completed QC strip).
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
  await page.goto('/dashboard/reviews-and-qc');
  const done = page.locator('div').filter({ has: page.getByRole('heading', { name: 'Completed QC' }) });
  await expect(done.locator(`[data-group="${g1}"]`).getByText('Passed: 1')).toBeVisible({ timeout: 20_000 });
  await expect(card(page, g1).getByText('Failed: 1')).toBeVisible();
  await expect(card(page, g2).getByText('Flagged: 1')).toBeVisible();
  await expect(card(page, g2).getByText('Failed: 1')).toBeVisible();

  // The QC report of each group shows them, then prints.
  for (const [group, expected] of [
    [g1, ['Passed', 'Failed']],
    [g2, ['Flagged', 'Failed']],
  ] as const) {
    const report = await context.newPage();
    await report.addInitScript(() => {
      const w = window as unknown as { printed: number };
      w.printed = 0;
      window.print = () => void w.printed++;
      window.close = () => undefined;
    });
    await report.goto(`/reports/quality-check/${group}`);
    await expect(report.getByTestId('report')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
    await expect(report.getByTestId('qc-result')).toHaveText([...expected]);
    if (group === g2) await expect(report.getByText('Tissue fold')).toBeVisible();
    await expect
      .poll(() => report.evaluate(() => (window as unknown as { printed: number }).printed))
      .toBe(1);
    await report.close();
  }
  await other.api.dispose();
});
