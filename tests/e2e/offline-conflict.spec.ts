// Offline scenario on a newer value overwritten: device A renames a study offline, device B renames it
// online afterwards; A reconnects and its older rename lands last (last write wins). A, and only A, is
// told, with both names, and puts B's name back in one click.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { cardOf, createStudyOnServer, openStudies, studyOnServer, syncNow } from './offline-helpers';

/** Cuts the network of a whole context: its pages and its service worker's own requests. */
async function cutNetwork(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/v2/**', (route) => route.abort('internetdisconnected'));
}

async function restoreNetwork(context: BrowserContext): Promise<void> {
  await context.unroute('**/v2/**');
  await context.setOffline(false);
}

async function rename(page: Page, id: string, name: string): Promise<void> {
  const card = cardOf(page, id);
  await card.getByRole('button', { name: 'Rename study' }).click();
  await card.getByRole('textbox', { name: 'Study name' }).fill(name);
  await card.getByRole('textbox', { name: 'Study name' }).press('Enter');
  await expect(card).toContainText(name);
}

test('an offline rename that replaced a newer one: only its device is told, with both names, and restores the other', async ({
  browser,
}) => {
  const [ctxA, ctxB] = [await browser.newContext(), await browser.newContext()];
  const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
  await openStudies(a);
  await openStudies(b);
  const study = await createStudyOnServer(a, `Conflict ${Date.now()}`);
  for (const page of [a, b]) {
    await syncNow(page);
    await expect(cardOf(page, study.id)).toBeVisible();
  }

  await cutNetwork(ctxA);
  await rename(a, study.id, 'Name from A');
  await expect(cardOf(a, study.id).getByText('Pending')).toBeVisible();
  // B renames later, online: the server has B's name, the newer one.
  await rename(b, study.id, 'Name from B');
  await expect(cardOf(b, study.id).getByText('Pending')).toBeHidden();
  expect((await studyOnServer(b, study.id)).name).toBe('Name from B');

  await restoreNetwork(ctxA);
  await expect(cardOf(a, study.id).getByText('Pending')).toBeHidden({ timeout: 20_000 });
  expect((await studyOnServer(a, study.id)).name).toBe('Name from A');
  const notice = a.getByTestId('overwrite-notice');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('Your change replaced a newer one');
  await expect(notice).toContainText('Study name');
  await expect(notice).toContainText("Yours, now saved: 'Name from A'");
  await expect(notice).toContainText("Replaced: 'Name from B'");

  // B, whose newer name was replaced, gets the server's copy and no notice: its change was not late.
  await syncNow(b);
  await expect(cardOf(b, study.id)).toContainText('Name from A');
  await expect(b.getByTestId('overwrite-notice')).toHaveCount(0);

  await notice.getByRole('button', { name: "Restore 'Name from B'" }).click();
  await expect(notice).toHaveCount(0);
  await expect(cardOf(a, study.id)).toContainText('Name from B');
  await expect.poll(async () => (await studyOnServer(a, study.id)).name).toBe('Name from B');
  await expect(cardOf(a, study.id).getByText('Pending')).toBeHidden();
  // The restore is a plain change made on the current copy: it tells no one anything.
  await expect(a.getByTestId('overwrite-notice')).toHaveCount(0);
  await syncNow(b);
  await expect(cardOf(b, study.id)).toContainText('Name from B');
  await expect(b.getByTestId('overwrite-notice')).toHaveCount(0);
  await ctxA.close();
  await ctxB.close();
});
