// /v2/uploads from a plain tus 1.0 client (tus-py-client, Uppy, tusd's tools): raw requests as such a
// client sends them — a POST whose Upload-Metadata holds only `filename`, PATCHes without a checksum,
// a HEAD — end in a processed image; a folder-only file or a group without its id is still refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadText } from '../../src/api/messages';
import type { UploadGroup } from '../../src/api/uploads';
import { UploadOwnText } from '../../src/api/uploads';
import { addLabFixture, bearer, dbTargets, startApp, type LabFixture, type TestApp } from './helpers';

const FIXTURES = path.resolve(process.cwd(), '../shared/fixtures');
const [target] = await dbTargets();
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe(`plain tus 1.0 clients on ${target.name}`, () => {
  let t: TestApp;
  let lab: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    lab = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const auth = () => ({ ...bearer(lab.member.token), 'tus-resumable': '1.0.0' });
  const create = (metadata: string, size: number) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/uploads',
      headers: { ...auth(), 'upload-length': String(size), 'upload-metadata': metadata },
    });

  for (const file of ['qptiff/brightfield.qptiff', 'czi/DAPI_GFP.czi']) {
    const name = path.basename(file);
    it(`takes a single ${path.extname(name)} sent with only its filename as a group of one`, async () => {
      const bytes = fs.readFileSync(path.join(FIXTURES, file));
      const created = await create(`filename ${b64(name)}`, bytes.length);
      expect(created.statusCode, created.body).toBe(201);
      const location = created.headers.location as string;
      const id = location.split('/').pop();

      const half = Math.floor(bytes.length / 2);
      for (const [from, to] of [
        [0, half],
        [half, bytes.length],
      ]) {
        const patched = await t.app.inject({
          method: 'PATCH',
          url: location,
          headers: {
            ...auth(),
            'content-type': 'application/offset+octet-stream',
            'upload-offset': String(from),
          },
          payload: bytes.subarray(from, to),
        });
        expect(patched.statusCode, patched.body).toBe(204);
        expect(patched.headers['upload-offset']).toBe(String(to));
      }
      const head = await t.app.inject({ method: 'HEAD', url: location, headers: auth() });
      expect(head.statusCode).toBe(200);
      expect(head.headers['upload-offset']).toBe(String(bytes.length));
      expect(head.headers['upload-length']).toBe(String(bytes.length));

      await t.app.ctx.jobs.drain();
      const list = await t.app.inject({ method: 'GET', url: '/v2/upload-groups', headers: auth() });
      const group = (list.json().result as UploadGroup[]).find((g) => g.parts.some((p) => p.id === id));
      expect(group).toMatchObject({
        name,
        status: 'complete',
        fileCount: 1,
        parts: [{ relativePath: name }],
      });
      const image = await t.app.inject({
        method: 'GET',
        url: `/v2/images/${group!.image!.id}`,
        headers: auth(),
      });
      expect(image.json().result).toMatchObject({ name, status: 'completed', displayStatus: 'completed' });
    });
  }

  it('still refuses what cannot be a group of one, naming what is wrong', async () => {
    const alone = await create(`filename ${b64('slide.mrxs')}`, 10);
    expect(alone.statusCode).toBe(415);
    expect(alone.json().message).toBe(UploadOwnText.mrxsNeedsFolder);
    const data = await create(`filename ${b64('Data0000.dat')}`, 10);
    expect(data.statusCode).toBe(415);
    expect(data.json().message).toBe(UploadText.incompatibleFormat);
    const folder = await create(`filename ${b64('slide.mrxs')},groupSize ${b64('3')}`, 10);
    expect(folder.statusCode).toBe(400);
    expect(folder.json().message).toBe('metadata.groupId: is required for a group of more than one file');
  });
});
