// /v2/alignments/rigids through HTTP on PGlite and PostgreSQL: requests under
// createOrganizationAlignments, the §3 query filters, reads within the organization, bad input.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { errorText } from '../../src/api/errors';
import { Denied } from '../../src/api/messages';
import { activities, alignmentRigids } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, rowCount, type Person, type ReviewLab } from './reviews-fixture';

const targets = await dbTargets();

describe.each(targets)('rigid alignments on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  let first: string;

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
  });
  afterAll(() => t.close());

  const create = (who: Person, alignmentRigid: object) =>
    call(who, 'POST', '/v2/alignments/rigids', { alignmentRigid });
  const input = (extra: object = {}) => ({
    referenceImageId: lab.images.img1,
    targetImageId: lab.images.img2,
    ...extra,
  });

  it('requests an alignment for the own organization: active, owned by the caller', async () => {
    const res = await create(lab.people.aligner, { inputData: input({ maxRotation: 15 }) });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().result;
    expect(a).toMatchObject({
      type: 'rigid',
      status: 'active',
      creatorUserId: lab.people.aligner.id,
      organizationId: lab.orgs.lab,
      inputData: input({ maxRotation: 15 }),
      outputData: null,
      error: null,
    });
    first = a.id;
    const logged = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, first));
    expect(logged.map((l) => l.actionType)).toEqual(['create']);
    const second = await create(lab.people.aligner, {
      type: 'rigid-fast',
      inputData: input({ referenceImageId: lab.images.img3 }),
    });
    expect(second.statusCode).toBe(200);
  });

  it('needs createOrganizationAlignments, the own organization and oneself as creator', async () => {
    const before = await rowCount(t.app, 'alignment_rigids');
    const noPolicy = await create(lab.people.plain, { inputData: input() });
    expect(noPolicy.statusCode).toBe(403);
    expect(noPolicy.json().message).toBe(Denied.noCreatePermission);
    const forOther = await create(lab.people.aligner, {
      inputData: input(),
      creatorUserId: lab.people.plain.id,
    });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe(AccessText.alignmentsForYourself);
    const otherOrg = await create(lab.people.aligner, { inputData: input(), organizationId: lab.orgs.other });
    expect(otherOrg.statusCode).toBe(403);
    expect(await rowCount(t.app, 'alignment_rigids')).toBe(before);
  });

  it('names the field of bad input and writes nothing', async () => {
    const before = await rowCount(t.app, 'alignment_rigids');
    const p = 'body.alignmentRigid.inputData';
    const cases: Array<[object, string]> = [
      [{}, `${p}: `],
      [{ inputData: { referenceImageId: lab.images.img1 } }, `${p}.targetImageId: `],
      [{ inputData: input({ targetImageId: 'x' }) }, `${p}.targetImageId: must be a valid id`],
      [
        { inputData: input({ targetImageId: lab.images.img1 }) },
        errorText('ALIGNMENT_SAME_IMAGE', { field: `${p}.targetImageId` }),
      ],
      [
        { inputData: input({ targetImageId: lab.images.other }) },
        errorText('UNKNOWN_IMAGE', { field: `${p}.targetImageId` }),
      ],
      [
        { inputData: input({ referenceImageId: crypto.randomUUID() }) },
        errorText('UNKNOWN_IMAGE', { field: `${p}.referenceImageId` }),
      ],
      [{ inputData: input(), type: '' }, 'body.alignmentRigid.type: '],
      [{ inputData: input(), type: 't'.repeat(51) }, 'body.alignmentRigid.type: '],
      [{ inputData: input(), status: 'fulfilled' }, 'body.alignmentRigid: '],
    ];
    for (const [body, message] of cases) {
      const res = await create(lab.people.aligner, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message.startsWith(message), res.json().message).toBe(true);
    }
    expect(await rowCount(t.app, 'alignment_rigids')).toBe(before);
  });

  it('filters lists by the §3 query filters, within what the caller may read', async () => {
    const list = async (who: Person, qs = '') => {
      const res = await call(who, 'GET', `/v2/alignments/rigids?${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { result: Array<{ id: string; type: string }>; count: number };
    };
    const { aligner, plain, outsider } = lab.people;
    expect((await list(plain)).count).toBe(2);
    expect((await list(outsider)).count).toBe(0);
    expect((await list(aligner, `referenceImageId=${lab.images.img1}`)).result.map((a) => a.id)).toEqual([
      first,
    ]);
    expect((await list(aligner, `targetImageId=${lab.images.img2}`)).count).toBe(2);
    expect((await list(aligner, 'type=rigid-fast')).count).toBe(1);
    expect((await list(aligner, 'status=active&status=failed')).count).toBe(2);
    expect((await list(aligner, 'status=fulfilled')).count).toBe(0);
    expect((await list(aligner, `creatorUserId=${aligner.id}&organizationId=${lab.orgs.lab}`)).count).toBe(2);
    expect((await list(aligner, `organizationId=${lab.orgs.other}`)).count).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(aligner, `createdAtStart=${today}&createdAtEnd=${today}`)).count).toBe(2);
    expect((await list(aligner, 'createdAtEnd=2000-01-01')).count).toBe(0);
    expect(
      (
        await list(
          aligner,
          `updatedAtStart=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        )
      ).count,
    ).toBe(0);
    const asc = await list(aligner, 'orderBy=createdAt&orderDirection=asc&limit=1');
    expect(asc.result.map((a) => a.id)).toEqual([first]);
    expect(asc.count).toBe(2);
    for (const qs of [
      'status=done',
      'createdAtStart=yesterday',
      'limit=500',
      'orderBy=type',
      'referenceImageId=1',
    ]) {
      const res = await call(aligner, 'GET', `/v2/alignments/rigids?${qs}`);
      expect(res.statusCode, qs).toBe(400);
    }
  });

  it('reads one alignment; 404 for others and unknown ids, 400 for malformed ones', async () => {
    const ok = await call(lab.people.plain, 'GET', `/v2/alignments/rigids/${first}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.id).toBe(first);
    const hidden = await call(lab.people.outsider, 'GET', `/v2/alignments/rigids/${first}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Alignment not found');
    expect(
      (await call(lab.people.plain, 'GET', `/v2/alignments/rigids/${crypto.randomUUID()}`)).statusCode,
    ).toBe(404);
    expect((await call(lab.people.plain, 'GET', '/v2/alignments/rigids/1')).statusCode).toBe(400);
    const [stored] = await t.app.ctx.db.select().from(alignmentRigids).where(eq(alignmentRigids.id, first));
    expect(stored.status).toBe('active');
  });
});
