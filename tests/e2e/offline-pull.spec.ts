// Pull: 1,200 changes on the server, the page closed in the middle of pulling
// them; reopened, the pull resumes from the stored cursor, with no gap and no duplicate.
import { expect, test, type Response } from '@playwright/test';
import { idbGet, idbKeys, openStudies } from './offline-helpers';

test('1,200 server-side changes, the page closed mid-pull: reopening resumes with no gap and no duplicate', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  await openStudies(page);
  await page.close();

  // 1,200 changes made elsewhere (another client, the server's jobs): new studies.
  const stamp = Date.now();
  const all = Array.from({ length: 1200 }, (_, i) => `Bulk ${stamp} ${i}`);
  for (let i = 0; i < all.length; i += 25)
    await Promise.all(
      all.slice(i, i + 25).map(async (name) => {
        const res = await context.request.post('/v2/studies', { data: { study: { name } } });
        expect(res.ok()).toBe(true);
      }),
    );

  // Reopen; let two pages of the studies feed through, and close the tab while the third is in flight.
  const seen: string[] = [];
  const cursors: string[] = [];
  const interrupted = await context.newPage();
  let served = 0;
  let storedCursor = '';
  await interrupted.route(/\/v2\/sync\/studies\?/, async (route) => {
    cursors.push(new URL(route.request().url()).searchParams.get('cursor') ?? '');
    if (++served > 2) {
      // The app asks for the next page while storing the last one: close once page 2 is stored.
      await expect
        .poll(async () => (await idbGet<{ cursor: string }>(interrupted, 'cursors', 'studies'))?.cursor)
        .toBe(storedCursor);
      await interrupted.close();
      return;
    }
    const res = await route.fetch();
    const body = (await res.json()) as { result: Array<{ id: string }>; cursor: string };
    seen.push(...body.result.map((r) => r.id));
    storedCursor = body.cursor;
    await route.fulfill({ response: res, json: body });
  });
  await interrupted.goto('/dashboard/studies').catch(() => undefined);
  await expect.poll(() => interrupted.isClosed(), { timeout: 30_000 }).toBe(true);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.length).toBeLessThan(1200);

  const reopened = await context.newPage();
  // Bodies are read as they come and awaited before the checks: the page may store a page's rows
  // before this side has its body, and a read still pending when the test ends would fail it.
  const resumed: string[] = [];
  const bodies: Array<Promise<void>> = [];
  const onFeed = (res: Response): void => {
    if (!/\/v2\/sync\/studies\?/.test(res.url())) return;
    cursors.push(new URL(res.url()).searchParams.get('cursor') ?? '');
    bodies.push(
      res.json().then((body: { result: Array<{ id: string }> }) => {
        resumed.push(...body.result.map((r) => r.id));
      }),
    );
  };
  reopened.on('response', onFeed);
  await reopened.goto('/dashboard/studies');
  const server = await context.request.get('/v2/sync/studies/ids');
  const readable = ((await server.json()) as { ids: string[] }).ids;
  await expect
    .poll(async () => (await idbKeys(reopened, 'studies')).length, { timeout: 60_000 })
    .toBe(readable.length);
  reopened.off('response', onFeed);
  await Promise.all(bodies);

  // It resumed from the cursor stored with the second page…
  expect(cursors[3]).toBe(storedCursor);
  // …fetched the other 800 once each (no duplicate) and nothing is missing (no gap).
  const fetched = [...seen, ...resumed];
  expect(new Set(fetched).size).toBe(fetched.length);
  expect(fetched.length).toBe(1200);
  expect(new Set(await idbKeys(reopened, 'studies'))).toEqual(new Set(readable));
});
