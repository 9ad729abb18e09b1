// GET/POST /v2/images/:id/annotations/geojson through HTTP on PGlite and PostgreSQL: export in QuPath's
// layout, import into another image, and refusals (not JSON, a wrong feature, too many features, too
// large, outside the image, no permission, an unreadable image) with a 4xx and nothing stored.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GEOJSON_IMPORT_MAX_BYTES,
  GEOJSON_IMPORT_MAX_FEATURES,
  GeoJsonText,
} from '../../src/api/annotation-geojson';
import { tilesDir } from '../../src/server/processing/files';
import { bearer, dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type Person, type ReviewLab } from './reviews-fixture';

const targets = await dbTargets();

const square = [
  [10, 10],
  [110, 10],
  [110, 60],
  [10, 60],
  [10, 10],
];
const region = {
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates: [square] },
  properties: { text: 'margin', classification: { name: 'Tumor', color: [200, 0, 0] } },
};
const ruler = {
  type: 'Feature',
  geometry: {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [300, 400],
    ],
  },
  properties: { text: '' },
};

describe.each(targets)('annotation GeoJSON on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  const url = (imageId: string) => `/v2/images/${imageId}/annotations/geojson`;
  const send = (who: Person, imageId: string, payload: string, type = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: url(imageId),
      headers: { ...bearer(who.token), 'content-type': type },
      payload,
    });
  const counts = async () => [await rowCount(t.app, 'annotations'), await rowCount(t.app, 'activities')];

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
    for (const [name, content] of [
      ['Margin', region],
      ['Ruler', ruler],
      ['Note', { text: 'no region' }],
    ] as const) {
      const res = await call(lab.people.annotator, 'POST', '/v2/annotations', {
        annotation: { imageId: lab.images.img1, name, content },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(() => t.close());

  let exported: string;

  it('exports the image’s annotations as a QuPath FeatureCollection, as a file', async () => {
    const res = await call(lab.people.plain, 'GET', url(lab.images.img1));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/geo+json');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".+\.geojson"$/);
    exported = res.body;
    const fc = res.json();
    expect(fc.type).toBe('FeatureCollection');
    // The note without a region has no geometry: not in the file.
    expect(fc.features).toHaveLength(2);
    expect(fc.features[0]).toMatchObject({
      type: 'Feature',
      geometry: region.geometry,
      properties: {
        objectType: 'annotation',
        name: 'Margin',
        classification: { name: 'Tumor', color: [200, 0, 0] },
        metadata: { note: 'margin' },
      },
    });
    expect(fc.features[1].properties).toEqual({ objectType: 'annotation', name: 'Ruler' });
  });

  it('imports the file into another image: the same shapes, classes and names, owned by the importer', async () => {
    const [before, activitiesBefore] = await counts();
    const res = await send(lab.people.teamMember, lab.images.team, exported);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.count).toBe(2);
    expect(await counts()).toEqual([before + 2, activitiesBefore + 2]);
    const list = await call(
      lab.people.teamMember,
      'GET',
      `/v2/annotations?imageId=${lab.images.team}&orderDirection=asc`,
    );
    const rows = list.json().result;
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Margin', 'Ruler']);
    expect(rows[0].content).toEqual(region);
    expect(rows[1].content).toEqual(ruler);
    expect(rows[0]).toMatchObject({ creatorUserId: lab.people.teamMember.id, organizationId: lab.orgs.team });
    // And out again: the same file but for the ids.
    const again = await call(lab.people.teamMember, 'GET', url(lab.images.team));
    const strip = (fc: { features: Array<{ id?: string }> }) => fc.features.map(({ id: _id, ...f }) => f);
    expect(strip(again.json())).toEqual(strip(JSON.parse(exported)));
  });

  it('takes the GeoJSON media type too', async () => {
    const res = await send(lab.people.annotator, lab.images.img2, exported, 'application/geo+json');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses bad JSON, a wrong feature, too many features and a too large file: 4xx, nothing stored', async () => {
    const before = await counts();
    const badJson = await send(lab.people.annotator, lab.images.img3, '{"type": "FeatureCollection",');
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().message).toMatch(/not valid JSON/);

    const fc = JSON.parse(exported);
    fc.features.push({ ...fc.features[0], geometry: { type: 'Polygon', coordinates: [square.slice(0, 4)] } });
    const wrong = await send(lab.people.annotator, lab.images.img3, JSON.stringify(fc));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(GeoJsonText.feature(3, GeoJsonText.ringNotClosed));

    const many = {
      type: 'FeatureCollection',
      features: Array.from(
        { length: GEOJSON_IMPORT_MAX_FEATURES + 1 },
        () => JSON.parse(exported).features[1],
      ),
    };
    const tooMany = await send(lab.people.annotator, lab.images.img3, JSON.stringify(many));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(GeoJsonText.tooManyFeatures(GEOJSON_IMPORT_MAX_FEATURES + 1));

    const big = `{"type":"FeatureCollection","features":[],"pad":"${'x'.repeat(GEOJSON_IMPORT_MAX_BYTES)}"}`;
    const tooLarge = await send(lab.people.annotator, lab.images.img3, big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe(GeoJsonText.tooLarge);

    const unknown = await send(lab.people.annotator, lab.images.img3, JSON.stringify({ type: 'Polygon' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(GeoJsonText.notGeoJson);
    expect(await counts()).toEqual(before);
  });

  it('refuses positions outside a processed image (its size from layers.json)', async () => {
    const dir = tilesDir(t.dataDir, lab.images.img3);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'layers.json'),
      JSON.stringify({ kind: 'brightfield', width: 100, height: 100, layers: [] }),
    );
    const before = await counts();
    const res = await send(lab.people.annotator, lab.images.img3, exported);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `${GeoJsonText.feature(1, GeoJsonText.outside(110, 10, 100, 100))}; ` +
        GeoJsonText.feature(2, GeoJsonText.outside(300, 400, 100, 100)),
    );
    expect(await counts()).toEqual(before);
  });

  it('checks permissions like POST /v2/annotations: policy, readable image', async () => {
    const before = await counts();
    const noPolicy = await send(lab.people.plain, lab.images.img1, exported);
    expect(noPolicy.statusCode).toBe(403);
    const otherOrg = await send(lab.people.outsider, lab.images.img1, exported);
    expect(otherOrg.statusCode).toBe(404);
    const noSession = await t.app.inject({
      method: 'POST',
      url: url(lab.images.img1),
      payload: JSON.parse(exported),
    });
    expect(noSession.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
    const readOther = await call(lab.people.outsider, 'GET', url(lab.images.img1));
    expect(readOther.statusCode).toBe(404);
    const badId = await call(lab.people.annotator, 'GET', url('not-an-id'));
    expect(badId.statusCode).toBe(400);
  });
});
