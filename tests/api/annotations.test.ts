// /v2/annotations through HTTP on PGlite and PostgreSQL: create in the own organization, only one's
// own content changes, deletion of one's own, reads within the organization, per-slide counts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { AnnotationText } from '../../src/api/annotations';
import { errorText } from '../../src/api/errors';
import { Denied } from '../../src/api/messages';
import { activities, annotations } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type Person, type ReviewLab } from './reviews-fixture';

const targets = await dbTargets();

describe.each(targets)('annotations on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  let first: string;
  const shape = {
    type: 'Polygon',
    coordinates: [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 0],
    ],
  };

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const create = (who: Person, annotation: object) => call(who, 'POST', '/v2/annotations', { annotation });

  it('creates an annotation in the own organization, owned by the caller', async () => {
    const res = await create(lab.people.annotator, {
      imageId: lab.images.img1,
      content: shape,
      name: 'Tumour',
    });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().result;
    expect(a).toMatchObject({
      imageId: lab.images.img1,
      content: shape,
      name: 'Tumour',
      creatorUserId: lab.people.annotator.id,
      organizationId: lab.orgs.lab,
      reviewId: null,
      sourceImageId: null,
    });
    first = a.id;
    const logged = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, first));
    expect(logged.map((l) => l.actionType)).toEqual(['create']);
    const second = await create(lab.people.teamMember, { imageId: lab.images.team, content: { n: 2 } });
    expect(second.statusCode, second.body).toBe(200);
  });

  it('refuses annotations for someone else, for another organization, and without the policy', async () => {
    const before = await rowCount(t.app, 'annotations');
    const forOther = await create(lab.people.annotator, {
      imageId: lab.images.img1,
      content: shape,
      creatorUserId: lab.people.plain.id,
    });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe(Denied.annotationsForYourself);
    const otherOrg = await create(lab.people.annotator, {
      imageId: lab.images.img1,
      content: shape,
      organizationId: lab.orgs.team,
    });
    expect(otherOrg.statusCode).toBe(403);
    const noPolicy = await create(lab.people.plain, { imageId: lab.images.img1, content: shape });
    expect(noPolicy.statusCode).toBe(403);
    expect(noPolicy.json().message).toBe(Denied.noCreatePermission);
    expect(await rowCount(t.app, 'annotations')).toBe(before);
  });

  it('names the field of bad input and writes nothing', async () => {
    const before = await rowCount(t.app, 'annotations');
    const cases: Array<[object, string]> = [
      [{ imageId: 'x', content: shape }, 'body.annotation.imageId: must be a valid id'],
      [{ imageId: lab.images.img1 }, `body.annotation.content: ${AnnotationText.contentRequired}`],
      [
        { imageId: crypto.randomUUID(), content: shape },
        errorText('UNKNOWN_IMAGE', { field: 'body.annotation.imageId' }),
      ],
      [
        { imageId: lab.images.other, content: shape },
        errorText('UNKNOWN_IMAGE', { field: 'body.annotation.imageId' }),
      ],
      [
        { imageId: lab.images.img1, content: shape, reviewId: crypto.randomUUID() },
        errorText('UNKNOWN_REVIEW', { field: 'body.annotation.reviewId' }),
      ],
      [{ imageId: lab.images.img1, content: 'x'.repeat(1_000_001) }, 'body.annotation.content: '],
      [{ imageId: lab.images.img1, content: shape, name: 'n'.repeat(201) }, 'body.annotation.name: '],
      [{ imageId: lab.images.img1, content: shape, colour: 1 }, 'body.annotation: '],
    ];
    for (const [annotation, message] of cases) {
      const res = await create(lab.people.annotator, annotation);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message.startsWith(message), res.json().message).toBe(true);
    }
    expect(await rowCount(t.app, 'annotations')).toBe(before);
  });

  it('lists by image within the organization (parents see their teams), never to others', async () => {
    const list = async (who: Person, qs = '') => {
      const res = await call(who, 'GET', `/v2/annotations?${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { result: Array<{ id: string }>; count: number; page: number; limit: number };
    };
    expect(await list(lab.people.plain, `imageId=${lab.images.img1}`)).toMatchObject({
      count: 1,
      limit: 100,
    });
    expect(
      (await list(lab.people.plain, `imageId=${lab.images.img1}&imageId=${lab.images.team}`)).count,
    ).toBe(2);
    // The team's member sees their own, not the parent organization's.
    expect((await list(lab.people.teamMember)).count).toBe(1);
    expect((await list(lab.people.outsider)).count).toBe(0);
    expect((await call(lab.people.plain, 'GET', '/v2/annotations?imageId=1')).statusCode).toBe(400);
    expect((await call(lab.people.outsider, 'GET', `/v2/annotations/${first}`)).statusCode).toBe(404);
    const one = await call(lab.people.plain, 'GET', `/v2/annotations/${first}`);
    expect(one.json().result.id).toBe(first);
  });

  it('counts readable annotations per slide, zero for slides without', async () => {
    const url = `/v2/annotations/counts?scanGroupId=${lab.slides.s1}&scanGroupId=${lab.slides.s2}`;
    const res = await call(lab.people.plain, 'GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ counts: { [lab.slides.s1]: 2, [lab.slides.s2]: 0 } });
    expect((await call(lab.people.outsider, 'GET', url)).json().counts[lab.slides.s1]).toBe(0);
    expect((await call(lab.people.plain, 'GET', '/v2/annotations/counts')).json()).toEqual({ counts: {} });
    expect((await call(lab.people.plain, 'GET', '/v2/annotations/counts?scanGroupId=S-1')).statusCode).toBe(
      400,
    );
  });

  it('lets the author change only the content of their own annotation', async () => {
    const url = `/v2/annotations/${first}`;
    const content = {
      ...shape,
      coordinates: [
        [1, 1],
        [2, 2],
        [1, 1],
      ],
    };
    const ok = await call(lab.people.annotator, 'PATCH', url, { annotation: { content } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().result.content).toEqual(content);
    const renamed = await call(lab.people.annotator, 'PATCH', url, { annotation: { name: 'Other' } });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().message).toBe(AccessText.generic);
    const notMine = await call(lab.people.outsider, 'PATCH', url, { annotation: { content: {} } });
    expect(notMine.statusCode).toBe(404);
    const sameOrg = await call(lab.people.plain, 'PATCH', url, { annotation: { content: {} } });
    expect(sameOrg.statusCode).toBe(403);
    const [stored] = await t.app.ctx.db.select().from(annotations).where(eq(annotations.id, first));
    expect(stored.content).toEqual(content);
    expect(stored.name).toBe('Tumour');
  });

  it('lets the author delete their own annotation, nobody else', async () => {
    const url = `/v2/annotations/${first}`;
    expect((await call(lab.people.plain, 'DELETE', url)).statusCode).toBe(403);
    expect((await call(lab.people.outsider, 'DELETE', url)).statusCode).toBe(404);
    const res = await call(lab.people.annotator, 'DELETE', url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: { id: first } });
    expect((await call(lab.people.annotator, 'GET', url)).statusCode).toBe(404);
    expect((await call(lab.people.annotator, 'DELETE', '/v2/annotations/nope')).statusCode).toBe(400);
  });
});
