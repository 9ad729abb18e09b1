// GET /v2/annotations?imageId= read page after page, as the viewer reads an image's whole set: every
// annotation exactly once, in creation order (ties by id), with the count on every page; and the
// list's SQL walks the image's index rather than every annotation of every image.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { annotations } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, type ReviewLab } from './reviews-fixture';

const targets = await dbTargets();
const ROWS = 350;

describe.each(targets)('annotation pages on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  let stored: { id: string; createdAt: Date }[];

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
    // Rows in groups of 50 sharing one timestamp (an import stamps them alike): only the id orders
    // those, so a page boundary inside a group must neither repeat nor lose one.
    const base = Date.parse('2026-01-01T00:00:00Z');
    const values = Array.from({ length: ROWS }, (_, i) => ({
      id: crypto.randomUUID(),
      organizationId: lab.orgs.lab,
      creatorUserId: lab.people.annotator.id,
      imageId: lab.images.img1,
      name: `R${i}`,
      content: {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [i, 0],
              [i + 1, 0],
              [i, 1],
            ],
          ],
        },
      },
      createdAt: new Date(base + Math.floor(i / 50) * 1000),
    }));
    await t.app.ctx.db.insert(annotations).values(values);
    // Another image's annotations are not part of this image's pages.
    await t.app.ctx.db.insert(annotations).values(
      Array.from({ length: 20 }, () => ({
        id: crypto.randomUUID(),
        organizationId: lab.orgs.lab,
        imageId: lab.images.img3,
        content: { text: 'elsewhere' },
      })),
    );
    stored = values
      .map(({ id, createdAt }) => ({ id, createdAt }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  });
  afterAll(() => t.close());

  const page = async (n: number, direction: 'asc' | 'desc') => {
    const res = await call(
      lab.people.plain,
      'GET',
      `/v2/annotations?imageId=${lab.images.img1}&limit=100&page=${n}&orderDirection=${direction}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { result: { id: string; createdAt: string }[]; count: number };
  };

  it('lists every annotation of the image once, in creation order, across pages', async () => {
    const ids: string[] = [];
    for (let n = 1; ; n++) {
      const body = await page(n, 'asc');
      expect(body.count).toBe(ROWS);
      ids.push(...body.result.map((a) => a.id));
      if (n * 100 >= body.count) break;
    }
    expect(ids).toEqual(stored.map((s) => s.id));
    const desc: string[] = [];
    for (let n = 1; n <= 4; n++) desc.push(...(await page(n, 'desc')).result.map((a) => a.id));
    expect(desc).toEqual(stored.map((s) => s.id).reverse());
  });

  it("reads a page through the image's index", async () => {
    const plan = await t.app.ctx.db.transaction(async (tx) => {
      // A table this small is cheaper to scan: forbid that, so the plan shows whether an index serves.
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const res = await tx.execute(
        sql`EXPLAIN SELECT * FROM annotations WHERE image_id = ${lab.images.img1}
            ORDER BY created_at, id LIMIT 100 OFFSET 200`,
      );
      return (res as unknown as { rows: Record<string, string>[] }).rows
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    expect(plan).toContain('annotations_image_created_idx');
  });
});
