// Reviews and QC end to end. A requester picks reviewers in the Request Review dialog, which offers
// only people who can act on the kind of request (never the requester); a QC reviewer on a
// tablet-sized touch viewport then passes, fails and flags images offline in two QC checks while a
// colleague gives one of those images another result first: on reconnecting the decisions reach the
// server, the conflicting one is rolled back and the reviewer is told. A standard reviewer sees only
// completion with a comment, and a study's QC numbers agree on its page, its QC report and its
// group's report, the group named by its study and date.
import {
  expect,
  request,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import type { Review } from '../../src/api/entities';
import { ReviewQcText } from '../../src/api/messages';
import { formatDate } from '../../src/app/lib/format';
import { encodeImageIds } from '../../src/app/reports/paths';
import { activationToken, admin, signIn } from './helpers';
import { waitForFirstSync } from './offline-helpers';
import type { SeededSlide } from './seed-slides';
import { errorText } from '../../src/api/errors';

const slides = () =>
  Object.values(JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>).sort((a, b) =>
    a.simpleId.localeCompare(b.simpleId),
  );
const baseURL = () => test.info().project.use.baseURL;

test.use({ viewport: { width: 800, height: 1280 }, hasTouch: true });

interface Person {
  api: APIRequestContext;
  id: string;
  name: string;
  email: string;
  password: string;
}

async function apiAs(email: string, password: string): Promise<Person> {
  const anon = await request.newContext({ baseURL: baseURL() });
  const login = await anon.post('/v2/auth/login', { data: { email, password } });
  expect(login.status()).toBe(200);
  const body = (await login.json()) as { accessToken: { token: string }; user: { id: string; name: string } };
  await anon.dispose();
  const api = await request.newContext({
    baseURL: baseURL(),
    extraHTTPHeaders: { authorization: `Bearer ${body.accessToken.token}` },
  });
  return { api, id: body.user.id, name: body.user.name || email, email, password };
}

/** A member of the admin's organization with these policies, invited and activated through the API. */
async function member(boss: Person, role: string, policies: string[]): Promise<Person> {
  const stamp = `${Date.now()}-${Math.round(Math.random() * 1e6)}`;
  const email = `${role}-${stamp}@lab.test`;
  const name = `${role === 'qc' ? 'QC reviewer' : 'Reviewer'} ${stamp}`;
  const invited = await boss.api.post('/v2/users', {
    data: { user: { email, name, enabledPolicies: policies } },
  });
  expect(invited.status()).toBe(200);
  const token = await activationToken(email);
  const password = `pw-${stamp}-member`;
  const anon = await request.newContext({ baseURL: baseURL() });
  expect((await anon.post('/v2/auth/activate-user', { data: { token, password } })).status()).toBe(200);
  await anon.dispose();
  return { ...(await apiAs(email, password)), name };
}

/** The admin, a QC reviewer and a standard reviewer, made once for the file. */
let people: Promise<{ boss: Person; qc: Person; std: Person }> | undefined;
const lab = () =>
  (people ??= (async () => {
    const boss = await apiAs(admin().email, admin().password);
    return {
      boss,
      qc: await member(boss, 'qc', ['manageOrganizationQC', 'manageOrganizationAnnotations']),
      std: await member(boss, 'reviewer', []),
    };
  })());

async function studyOf(boss: Person, name: string): Promise<{ id: string; name: string }> {
  const [first, second] = slides();
  const res = await boss.api.post('/v2/studies', {
    data: { study: { name, scanGroupIds: [first.scanGroupId, second.scanGroupId] } },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { result: { id: string; name: string } }).result;
}

/** A context and page of its own, signed in as `who`, with the app's store filled. */
async function deviceOf(
  browser: Browser,
  who: Person,
  viewport: { width: number; height: number },
  hasTouch: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport, hasTouch });
  const page = await context.newPage();
  await signIn(page, who);
  await controlled(page);
  await waitForFirstSync(page);
  return { context, page };
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

const escaped = (text: string) => new RegExp(text.replace(/[.+]/g, '\\$&'));

test('a QC reviewer decides offline on a tablet; a conflicting earlier decision wins and is shown', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { boss, qc, std } = await lab();
  const [first, second] = slides();
  const study = await studyOf(boss, `QC study ${Date.now()}`);
  await signIn(page);
  await controlled(page);
  await waitForFirstSync(page);

  // The requester asks from the dialog (?request-review): each kind offers only who can act on it.
  await page.goto('/dashboard/reviews-and-qc');
  await expect(page.getByRole('heading', { name: 'Active Reviews' })).toBeVisible();
  await page.getByRole('button', { name: 'Request Review' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request Review' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/request-review/);
  const reviewer = dialog.getByLabel('Reviewer 1', { exact: true });
  await reviewer.click();
  await expect(page.getByRole('option', { name: escaped(std.email) })).toBeVisible();
  await expect(page.getByRole('option', { name: escaped(admin().email) })).toHaveCount(0);
  await page.keyboard.press('Tab');
  await dialog.getByText('Quality check (QC)').click();
  await dialog.getByLabel('Study', { exact: true }).click();
  await page.getByRole('option', { name: study.name }).click();
  const send = dialog.getByRole('button', { name: 'Request Review' });
  await expect(send).toBeDisabled();
  for (const s of [first, second]) {
    await dialog.getByLabel('Slides').click();
    await page.getByRole('option', { name: new RegExp(s.simpleId) }).click();
  }
  await page.keyboard.press('Tab'); // leaves the slides list, which closes it
  await reviewer.click();
  await expect(page.getByRole('option', { name: escaped(std.email) })).toHaveCount(0);
  await expect(page.getByRole('option', { name: escaped(admin().email) })).toHaveCount(0);
  await page.getByRole('option', { name: escaped(qc.email) }).click();
  await expect(dialog.getByText('2 reviews will be requested.')).toBeVisible();
  await page.screenshot({ path: '/tmp/reviews-shots/request-dialog-800.png' });
  await send.click();
  await expect(page.getByText('Review Requested')).toBeVisible();
  await expect(page.getByText(/received your review request\./)).toBeVisible();
  await expect(dialog).toBeHidden();
  const g1Card = page.getByTestId('review-card').filter({ hasText: study.name }).first();
  await expect(g1Card.getByTestId('group-name')).toHaveText(`${study.name} · ${formatDate(new Date())}`);
  const g1 = (await g1Card.getAttribute('data-group'))!;
  await page.screenshot({ path: '/tmp/reviews-shots/reviews-800.png' });

  // A second QC check of the same images, requested through the API.
  const g2 = crypto.randomUUID();
  const g2Reviews: Review[] = [];
  for (const s of [first, second]) {
    const res = await boss.api.post('/v2/reviews', {
      data: {
        review: { reviewGroupUUID: g2, studyId: study.id, imageId: s.imageId, reviewerId: qc.id, type: 'qc' },
      },
    });
    expect(res.status()).toBe(200);
    g2Reviews.push(((await res.json()) as { result: Review }).result);
  }

  // The QC reviewer's tablet: every review of both groups is there before the network goes.
  const tablet = await deviceOf(browser, qc, { width: 800, height: 1280 }, true);
  const qcPage = tablet.page;
  await qcPage.goto('/dashboard/reviews-and-qc');
  await expect(card(qcPage, g2).getByText('Pending Review: 2')).toBeVisible({ timeout: 20_000 });
  await expect(card(qcPage, g1).getByText('Pending Review: 2')).toBeVisible();

  // Offline: pass then fail in the first group, one tap each; the toast says it waits here.
  await tablet.context.setOffline(true);
  await card(qcPage, g1).getByRole('link', { name: 'Open' }).click();
  await expect(qcPage).toHaveURL(new RegExp(`/review/${g1}/0$`));
  await expect(qcPage.getByText('Image 1 of 2')).toBeVisible();
  await expect(qcPage.getByTestId('group-name')).toHaveText(`${study.name} · ${formatDate(new Date())}`);
  await expect(qcPage.getByRole('button', { name: ReviewQcText.completeReview })).toHaveCount(0);
  await qcPage.getByRole('button', { name: 'Pass' }).tap();
  await expect(qcPage.getByText(ReviewQcText.savedOnDevice)).toBeVisible();
  await expect(qcPage.getByText('Image 2 of 2')).toBeVisible();
  await qcPage.getByRole('button', { name: 'Fail' }).tap();
  await expect(qcPage.getByTestId('review-status')).toHaveText('Failed');
  await qcPage.getByRole('button', { name: 'Previous' }).tap();
  await expect(qcPage.getByTestId('review-status')).toHaveText('Passed');
  await expect(qcPage.getByText('Passed: 1')).toBeVisible();
  await qcPage.screenshot({ path: '/tmp/reviews-shots/qc-tablet-800.png' });

  // Still offline, to the second group by the app's own links: flag with a reason, then pass.
  await qcPage.getByRole('link', { name: 'Return to Dashboard' }).click();
  await qcPage.getByRole('tab', { name: 'Reviews & QC' }).click();
  await card(qcPage, g2).getByRole('link', { name: 'Open' }).click();
  await expect(qcPage).toHaveURL(new RegExp(`/review/${g2}/0$`));
  // An annotation made offline counts at once and is sent with the rest.
  const note = `Fold at the left edge ${Date.now()}`;
  await qcPage.getByLabel('Annotation text').fill(note);
  await qcPage.getByRole('button', { name: 'Add annotation' }).tap();
  await expect(qcPage.getByTestId('annotation-count')).toHaveText('1');
  await qcPage.getByText('Tissue fold').tap();
  await qcPage.getByRole('button', { name: 'Flag' }).tap();
  await expect(qcPage.getByText('Image 2 of 2')).toBeVisible();
  await qcPage.getByRole('button', { name: 'Pass' }).tap();
  await expect(qcPage.getByTestId('review-status')).toHaveText('Passed');

  // Meanwhile the requester, online, fails that second image first.
  const copy = g2Reviews.find((r) => r.imageId === second.imageId)!;
  const theirs = await boss.api.patch(`/v2/reviews/${copy.id}`, {
    data: { review: { status: 'rejected', updatedAt: copy.updatedAt } },
  });
  expect(theirs.status()).toBe(200);

  // Back online: the earlier decision wins; ours is rolled back and we are told.
  await tablet.context.setOffline(false);
  const notice = qcPage.getByTestId('qc-conflict');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText(ReviewQcText.decisionRolledBack);
  await expect(notice).toContainText(
    `Image 2: ${errorText('QC_DECIDED_FIRST', { who: boss.name, result: 'Failed' })}`,
  );
  await expect(qcPage.getByTestId('review-status')).toHaveText('Failed', { timeout: 30_000 });

  // The server holds the surviving decisions.
  const onServer = async (group: string) =>
    ((await (await boss.api.get(`/v2/reviews/groups?ids=${group}`)).json()) as { result: object[] })
      .result[0];
  await expect.poll(() => onServer(g1)).toMatchObject({ total: 2, accepted: 1, rejected: 1, pending: 0 });
  await expect.poll(() => onServer(g2)).toMatchObject({ total: 2, flagged: 1, rejected: 1, pending: 0 });
  await expect
    .poll(async () =>
      JSON.stringify(await (await boss.api.get(`/v2/annotations?imageId=${first.imageId}`)).json()),
    )
    .toContain(note);

  // The group cards count them (both groups are complete: the Completed QC strip).
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();
  await qcPage.goto('/dashboard/reviews-and-qc');
  const done = qcPage.locator('div').filter({ has: qcPage.getByRole('heading', { name: 'Completed QC' }) });
  await expect(done.locator(`[data-group="${g1}"]`).getByText('Passed: 1')).toBeVisible({ timeout: 20_000 });
  await expect(card(qcPage, g1).getByText('Failed: 1')).toBeVisible();
  await expect(card(qcPage, g2).getByText('Flagged: 1')).toBeVisible();
  await expect(card(qcPage, g2).getByText('Failed: 1')).toBeVisible();

  // The QC report of each group shows them, then prints.
  for (const [group, expected] of [
    [g1, ['Passed', 'Failed']],
    [g2, ['Flagged', 'Failed']],
  ] as const) {
    const report = await tablet.context.newPage();
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
  await tablet.context.close();
});

/** A report's summary facts, label → value. */
async function facts(page: Page): Promise<Record<string, string>> {
  const rows = page.getByTestId('report').locator('table.keep tr');
  const out: Record<string, string> = {};
  for (const row of await rows.all())
    out[(await row.locator('th').innerText()).trim()] = (await row.locator('td').innerText()).trim();
  return out;
}

test('a standard reviewer completes with a comment; QC numbers agree on the study page and both reports', async ({
  page,
  browser,
}) => {
  // Three sign-ins, and the requester's first pull of the whole e2e store (thousands of studies by
  // this point of the run) before the study page can show: minutes on a loaded CI machine.
  test.setTimeout(180_000);
  const { boss, qc, std } = await lab();
  const [first, second] = slides();
  const study = await studyOf(boss, `Counts study ${Date.now()}`);
  const ask = async (group: string, imageId: string, reviewerId: string, type: 'qc' | 'standard') => {
    const res = await boss.api.post('/v2/reviews', {
      data: { review: { reviewGroupUUID: group, studyId: study.id, imageId, reviewerId, type } },
    });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { result: Review }).result;
  };
  const standard = crypto.randomUUID();
  await ask(standard, first.imageId, std.id, 'standard');
  // A QC check of the study: one image passed, the other still pending; the QC reviewer decides later.
  const check = crypto.randomUUID();
  const passed = await ask(check, first.imageId, qc.id, 'qc');
  await ask(check, second.imageId, qc.id, 'qc');
  expect(
    (await qc.api.patch(`/v2/reviews/${passed.id}`, { data: { review: { status: 'accepted' } } })).status(),
  ).toBe(200);

  // The standard reviewer, at a desk: completion with a comment, never Pass / Fail / Flag.
  const desk = await deviceOf(browser, std, { width: 1440, height: 900 }, false);
  await desk.page.goto('/dashboard/reviews-and-qc');
  await expect(card(desk.page, standard).getByText('Waiting: 1')).toBeVisible({ timeout: 20_000 });
  await desk.page.screenshot({ path: '/tmp/reviews-shots/reviews-1440.png' });
  await card(desk.page, standard).getByRole('link', { name: 'Open' }).click();
  // The list's cards carry group names too, and the URL changes before the group's page replaces the
  // list: read the name once the page's own button is there.
  await expect(desk.page).toHaveURL(new RegExp(`/review/${standard}/`));
  await expect(desk.page.getByRole('button', { name: ReviewQcText.completeReview })).toBeVisible();
  await expect(desk.page.getByTestId('group-name')).toHaveText(`${study.name} · ${formatDate(new Date())}`);
  for (const verb of ['Pass', 'Fail', 'Flag'])
    await expect(desk.page.getByRole('button', { name: verb, exact: true })).toHaveCount(0);
  await desk.page.getByLabel(ReviewQcText.reviewComment).fill('Even staining, no folds');
  await desk.page.getByRole('button', { name: ReviewQcText.completeReview }).click();
  await expect(desk.page.getByText(ReviewQcText.saved, { exact: true })).toBeVisible();
  await expect(desk.page.getByTestId('review-status')).toHaveText('Completed');
  await desk.page.screenshot({ path: '/tmp/reviews-shots/standard-review-1440.png' });
  await desk.context.close();

  // The requester: the same numbers, in the same words, on the study page and both QC reports.
  await signIn(page);
  const expected = { Passed: '1', Failed: '0', Flagged: '0', 'Pending Review': '1' };
  await page.goto(`/studies/${study.id}`);
  const donut = page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'QC Status' }) });
  await expect(page.getByRole('heading', { name: 'QC Status' })).toBeVisible({ timeout: 90_000 });
  for (const [label, n] of Object.entries({ ...expected, 'Not Reviewed': '0' }))
    await expect(donut.getByText(`${label}: ${n}`, { exact: true })).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: '/tmp/reviews-shots/study-800.png', fullPage: true });
  for (const url of [
    `/reports/quality-check-image-ids/${encodeImageIds([first.imageId, second.imageId])}`,
    `/reports/quality-check/${check}`,
  ]) {
    const report = await page.context().newPage();
    await report.addInitScript(() => {
      window.print = () => undefined;
      window.close = () => undefined;
    });
    await report.setViewportSize({ width: 1440, height: 900 });
    await report.goto(url);
    await expect(report.getByTestId('report')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
    expect(await facts(report)).toMatchObject(expected);
    if (url.includes(check))
      expect((await facts(report))['Review group']).toBe(`${study.name} · ${formatDate(new Date())}`);
    await report.screenshot({
      path: `/tmp/reviews-shots/qc-report-${url.includes(check) ? 'group' : 'study'}-1440.png`,
      fullPage: true,
    });
    await report.close();
  }
});
