// Under the server's Content-Security-Policy the app runs whole: the shell and its service worker,
// the web manifest, the viewer's tiles on canvas, and nothing the browser refuses along the way.
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';
import type { SeededSlide } from './seed-slides';

/** Every policy violation the browser reports on this page, from the console and the DOM event. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => {
    if (/Content Security Policy/i.test(e.message)) seen.push(e.message);
  });
  return seen;
}

test('the app, its service worker and the viewer run under the policy without a violation', async ({
  page,
}) => {
  const violations = watchViolations(page);
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `Content Security Policy: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    ),
  );
  const shell = await page.request.get('/');
  expect(shell.headers()['content-security-policy']).toContain("script-src 'self'");
  await signIn(page);
  // The service worker installs and the manifest is readable: the app still installs and works offline.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  expect(await page.evaluate(async () => (await fetch('/manifest.webmanifest')).ok)).toBe(true);

  const s = (JSON.parse(process.env.E2E_SLIDES!) as Record<string, SeededSlide>).brightfield;
  await expect
    .poll(async () => (await (await page.request.get(`/v2/images/${s.imageId}`)).json()).result.status, {
      timeout: 60_000,
    })
    .toBe('completed');
  await page.goto(`/sgviewer/${s.scanGroupId}`);
  await expect(page.getByRole('heading', { name: `Slide ${s.simpleId}` })).toBeVisible();
  // Tiles drawn on the canvas: it is no longer one flat colour.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="slide-viewer"] canvas');
          const ctx = canvas?.getContext('2d');
          if (!canvas || !ctx || !canvas.width) return 0;
          const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
          let [min, max] = [255, 0];
          for (let i = 0; i < data.length; i += 4)
            [min, max] = [Math.min(min, data[i]), Math.max(max, data[i])];
          return max - min;
        }),
      { timeout: 20_000 },
    )
    .toBeGreaterThan(40);
  expect(violations).toEqual([]);
});
