// /v2/annotation-classes through HTTP on PGlite and PostgreSQL: managed by those who manage
// annotations in the organization, listed with the ancestors' classes, one name per organization,
// and a rename or recolour carried into the organization's (and its teams') annotations.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_CLASSES_MAX, AnnotationClassText } from '../../src/api/annotation-classes';
import { annotationClasses } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type ReviewLab } from './reviews-fixture';

const targets = await dbTargets();

const region = (classification?: object) => ({
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 0],
      ],
    ],
  },
  properties: { text: '', ...(classification ? { classification } : {}) },
});

describe.each(targets)('annotation classes on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  let tumour: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const names = (res: { json(): { result: Array<{ name: string }> } }) =>
    res.json().result.map((c) => c.name);

  it('those who manage annotations add classes to their organization; others may not', async () => {
    const res = await call(lab.people.annotator, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'Tumor', color: '#C83232' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      name: 'Tumor',
      color: '#c83232',
      organizationId: lab.orgs.lab,
    });
    tumour = res.json().result.id;
    const before = await rowCount(t.app, 'annotation_classes');
    const plain = await call(lab.people.plain, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'Stroma', color: '#00aa00' },
    });
    expect(plain.statusCode).toBe(403);
    const teamInLab = await call(lab.people.teamMember, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'Stroma', color: '#00aa00', organizationId: lab.orgs.lab },
    });
    expect(teamInLab.statusCode).toBe(403);
    const duplicate = await call(lab.people.annotator, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'tumor', color: '#000000' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(AnnotationClassText.duplicate('tumor'));
    const badColor = await call(lab.people.annotator, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'Necrosis', color: 'red' },
    });
    expect(badColor.statusCode).toBe(400);
    expect(badColor.json().message).toBe(`body.annotationClass.color: ${AnnotationClassText.badColor}`);
    const empty = await call(lab.people.annotator, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: '  ', color: '#000000' },
    });
    expect(empty.statusCode).toBe(400);
    expect(await rowCount(t.app, 'annotation_classes')).toBe(before);
  });

  it('lists the organization’s classes and its ancestors’; not another organization’s', async () => {
    const team = await call(lab.people.teamMember, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'Immune cells', color: '#3232c8' },
    });
    expect(team.statusCode, team.body).toBe(200);
    expect(names(await call(lab.people.teamMember, 'GET', '/v2/annotation-classes'))).toEqual([
      'Immune cells',
      'Tumor',
    ]);
    expect(names(await call(lab.people.plain, 'GET', '/v2/annotation-classes'))).toEqual(['Tumor']);
    const other = await call(
      lab.people.outsider,
      'GET',
      `/v2/annotation-classes?organizationId=${lab.orgs.lab}`,
    );
    expect(other.statusCode).toBe(404);
    expect(names(await call(lab.people.outsider, 'GET', '/v2/annotation-classes'))).toEqual([]);
  });

  it('a rename and recolour is carried into the annotations of the organization and its teams', async () => {
    const tumor = { name: 'Tumor', color: [200, 50, 50] };
    const mine = await call(lab.people.annotator, 'POST', '/v2/annotations', {
      annotation: { imageId: lab.images.img1, content: region(tumor) },
    });
    const team = await call(lab.people.teamMember, 'POST', '/v2/annotations', {
      annotation: { imageId: lab.images.team, content: region(tumor) },
    });
    const outside = await call(lab.people.outsider, 'POST', '/v2/annotations', {
      annotation: { imageId: lab.images.other, content: region(tumor) },
    });
    const unclassified = await call(lab.people.annotator, 'POST', '/v2/annotations', {
      annotation: { imageId: lab.images.img1, content: { text: 'a note' } },
    });
    for (const r of [mine, team, outside, unclassified]) expect(r.statusCode, r.body).toBe(200);

    const denied = await call(lab.people.plain, 'PATCH', `/v2/annotation-classes/${tumour}`, {
      annotationClass: { name: 'Carcinoma' },
    });
    expect(denied.statusCode).toBe(403);
    const res = await call(lab.people.annotator, 'PATCH', `/v2/annotation-classes/${tumour}`, {
      annotationClass: { name: 'Carcinoma', color: '#00ff00' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const content = async (who: typeof lab.people.annotator, id: string) =>
      (await call(who, 'GET', `/v2/annotations/${id}`)).json().result.content;
    const carcinoma = { name: 'Carcinoma', color: [0, 255, 0] };
    expect(await content(lab.people.annotator, mine.json().result.id)).toEqual(region(carcinoma));
    expect(await content(lab.people.teamMember, team.json().result.id)).toEqual(region(carcinoma));
    expect(await content(lab.people.outsider, outside.json().result.id)).toEqual(region(tumor));
    expect(await content(lab.people.annotator, unclassified.json().result.id)).toEqual({ text: 'a note' });
  });

  it('removes a class (annotations keep their name); at most the limit per organization', async () => {
    const denied = await call(lab.people.plain, 'DELETE', `/v2/annotation-classes/${tumour}`);
    expect(denied.statusCode).toBe(403);
    const res = await call(lab.people.annotator, 'DELETE', `/v2/annotation-classes/${tumour}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(names(await call(lab.people.plain, 'GET', '/v2/annotation-classes'))).toEqual([]);
    expect((await call(lab.people.annotator, 'DELETE', `/v2/annotation-classes/${tumour}`)).statusCode).toBe(
      404,
    );

    await t.app.ctx.db.insert(annotationClasses).values(
      Array.from({ length: ANNOTATION_CLASSES_MAX }, (_, i) => ({
        id: crypto.randomUUID(),
        organizationId: lab.orgs.lab,
        name: `Class ${i}`,
        color: '#123456',
      })),
    );
    const over = await call(lab.people.annotator, 'POST', '/v2/annotation-classes', {
      annotationClass: { name: 'One more', color: '#000000' },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(AnnotationClassText.tooMany);
  });
});
