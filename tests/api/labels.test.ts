// Slide labels: the ZPL names the slide in a DataMatrix and in text, and the PNG rendering of the same
// label decodes back to the slide's simpleId through the upload pipeline's decoder.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations, scanGroups } from '../../src/server/db/schema';
import { labelZpl } from '../../src/server/labels/zpl';
import { decodeLabel } from '../../src/server/slides/barcode';
import { addOrganization, bearer, memberToken, dbTargets, login, startApp, type TestApp } from './helpers';

const [target] = await dbTargets();

describe(`slide labels on ${target.name}`, () => {
  let t: TestApp;
  let token: string;
  let slideId: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
    const [org] = await t.app.ctx.db.select().from(organizations);
    slideId = crypto.randomUUID();
    await t.app.ctx.db
      .insert(scanGroups)
      .values({ id: slideId, simpleId: 'K7M2Q9XW', organizationId: org.id, animal: 'Mouse' });
  });
  afterAll(() => t.close());

  it('serves ZPL with the simpleId as DataMatrix and as text', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/scan-groups/${slideId}/label.zpl`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('label-K7M2Q9XW.zpl');
    expect(res.body.startsWith('^XA')).toBe(true);
    expect(res.body).toContain('^BXN');
    const hex = Buffer.from('K7M2Q9XW').toString('hex').replace(/(..)/g, '_$1');
    expect(res.body.split(hex).length - 1).toBe(2);
  });

  it('renders a PNG whose barcode decodes back to the simpleId', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/scan-groups/${slideId}/label.png`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    expect(await decodeLabel(new Uint8Array(res.rawPayload))).toBe('K7M2Q9XW');
  });

  it('escapes what a user typed, so it cannot end the field', () => {
    const zpl = labelZpl({ simpleId: 'A^XZ~JR', organ: 'Liver^FS', date: new Date(2026, 0, 5) });
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).toContain(Buffer.from('01/05/2026').toString('hex').replace(/(..)/g, '_$1'));
  });

  it('answers 404 for a slide the caller cannot read, and 400 for a malformed id', async () => {
    const elsewhere = await addOrganization(t.app, { name: 'Other Lab' });
    const { token: other } = await memberToken(t.app, {
      email: 'outsider@other.test',
      organizationId: elsewhere,
    });
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/v2/scan-groups/${slideId}/label.zpl`,
      headers: bearer(other),
    });
    expect(hidden.statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v2/scan-groups/nope/label.zpl',
      headers: bearer(token),
    });
    expect(bad.statusCode).toBe(400);
  });
});
