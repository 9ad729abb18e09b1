// Spec §5 and §9 held against the API: the denial texts verbatim (copied here from the spec, so a
// drifting constant fails), and every limit the server enforces, at and just past its edge, with the
// status and text a client gets. On PGlite and PostgreSQL.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Denied, Report } from '../../src/api/messages';
import { StudyRuleText } from '../../src/api/studies';
import { scanGroups } from '../../src/server/db/schema';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';
import { errorText } from '../../src/api/errors';

/** Spec §5, "Permission denial messages", verbatim. */
const SPEC_DENIALS = [
  'You cannot delete your own organization',
  'You cannot delete yourself',
  'You can only create scan groups for yourself',
  'You can only create scan orders for yourself',
  'You can only create reviews for yourself',
  'You can only create annotations for yourself',
  'You can only create studies for yourself',
  'You can only create images for yourself',
  'You can only download active images',
  'You can only upload active images',
  'You can only update status of active images',
  'You can only update display status of active images',
];
/** Other §5 texts the API answers with. */
const SPEC_TEXTS = {
  tooShort: 'Message needs to at least 1 characters long',
  tagExists: 'This tag already exists',
  alreadyHasScanGroup: 'The study already has this scan group.',
  noStudyPermission: 'You do not have permission to create a study',
  noReviewPermission: 'You do not have permission to request a review',
};

describe('spec texts', () => {
  it('has every §5 denial message verbatim', () => {
    expect(Object.values(Denied)).toEqual(expect.arrayContaining(SPEC_DENIALS));
  });
  it('has the other §5 texts verbatim', () => {
    expect(Report.tooShort).toBe(SPEC_TEXTS.tooShort);
    expect(errorText('TAG_EXISTS')).toBe(SPEC_TEXTS.tagExists);
    expect(errorText('SCAN_GROUP_IN_STUDY')).toBe(SPEC_TEXTS.alreadyHasScanGroup);
    expect(Denied.noStudyPermission).toBe(SPEC_TEXTS.noStudyPermission);
    expect(Denied.noReviewPermission).toBe(SPEC_TEXTS.noReviewPermission);
  });
});

const targets = await dbTargets();

describe.each(targets)('spec §5/§9 limits on $name', (target) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startApp(target);
    token = (await login(t.app)).access;
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const study = async (body: object = {}) => {
    const res = await send('POST', '/studies', { study: { name: `S ${crypto.randomUUID()}`, ...body } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { id: string; tags: string[] };
  };
  const tags = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  /** Status and message; `message` matched at the end, since schema errors name the field first. */
  const expectAnswer = (res: { statusCode: number; body: string }, status: number, message?: string) => {
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(JSON.parse(res.body).message).toMatch(new RegExp(`${escape(message)}$`));
  };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('study name: required, 1 to 100 characters', async () => {
    expectAnswer(await send('POST', '/studies', { study: {} }), 400, StudyRuleText.nameRequired);
    expectAnswer(await send('POST', '/studies', { study: { name: '   ' } }), 400, StudyRuleText.nameRequired);
    expectAnswer(
      await send('POST', '/studies', { study: { name: 'n'.repeat(101) } }),
      400,
      StudyRuleText.nameTooLong,
    );
    const ok = await send('POST', '/studies', { study: { name: 'n'.repeat(100) } });
    expectAnswer(ok, 200);
    const { id } = ok.json().result as { id: string };
    expectAnswer(
      await send('PATCH', `/studies/${id}`, { study: { name: 'm'.repeat(101) } }),
      400,
      StudyRuleText.nameTooLong,
    );
  });

  it('tags: at most 16 characters, at most 30 per study, no duplicates', async () => {
    expectAnswer(await send('POST', '/studies', { study: { name: 'x', tags: ['t'.repeat(17)] } }), 400);
    const s = await study({ tags: ['t'.repeat(16)] });
    expect(s.tags).toEqual(['t'.repeat(16)]);
    expectAnswer(
      await send('PATCH', `/studies/${s.id}`, { add: { tags: ['u'.repeat(17)] } }),
      400,
      StudyRuleText.tagTooLong,
    );
    // 30 is the most a study holds, whether sent whole or added to.
    expectAnswer(await send('POST', '/studies', { study: { name: 'x', tags: tags(31) } }), 400);
    const full = await study({ tags: tags(29) });
    expectAnswer(await send('PATCH', `/studies/${full.id}`, { add: { tags: ['last'] } }), 200);
    expectAnswer(
      await send('PATCH', `/studies/${full.id}`, { add: { tags: ['over'] } }),
      400,
      StudyRuleText.tooManyTags,
    );
    // A duplicate, in one request or against the stored tags (case-insensitive).
    expectAnswer(
      await send('PATCH', `/studies/${s.id}`, { add: { tags: ['dup', 'dup'] } }),
      400,
      SPEC_TEXTS.tagExists,
    );
    expectAnswer(
      await send('PATCH', `/studies/${s.id}`, { add: { tags: ['T'.repeat(16)] } }),
      409,
      SPEC_TEXTS.tagExists,
    );
  });

  it('replicate: a slide already in the study is refused with the spec text', async () => {
    const slide = crypto.randomUUID();
    await t.app.ctx.db
      .insert(scanGroups)
      .values({ id: slide, simpleId: `L-${slide.slice(0, 8)}`, organizationId: (await orgOfAdmin()).id });
    const s = await study({ scanGroupIds: [slide] });
    expectAnswer(
      await send('PATCH', `/studies/${s.id}`, { add: { scanGroupIds: [slide] } }),
      409,
      SPEC_TEXTS.alreadyHasScanGroup,
    );
  });
  const orgOfAdmin = async () => (await send('GET', '/auth/me')).json().organization as { id: string };

  it('report message: 1 to 2000 characters', async () => {
    for (const url of ['/mail/send-bugs', '/mail/request-change']) {
      expectAnswer(await send('POST', url, { message: '' }), 400, SPEC_TEXTS.tooShort);
      expectAnswer(await send('POST', url, { message: '   ' }), 400, SPEC_TEXTS.tooShort);
      expectAnswer(await send('POST', url, { message: 'm'.repeat(2001) }), 400);
      expectAnswer(await send('POST', url, { message: 'm'.repeat(2000) }), 200);
    }
  });

  it('list sizes of §9: the defaults, and the pages the app asks for', async () => {
    const defaults: Array<[string, number]> = [
      ['/scan-groups', 10],
      ['/studies', 25],
      ['/reviews', 10],
      ['/images', 100],
      ['/annotations', 100],
    ];
    for (const [url, limit] of defaults) {
      const res = await send('GET', url);
      expectAnswer(res, 200);
      expect(res.json(), url).toMatchObject({ page: 1, limit });
    }
    // organs?limit=100 (§7), review lists fetched whole at 100 (§9), QC lists of 5.
    for (const url of ['/organs?limit=100', '/reviews?limit=100', '/reviews?limit=5&type=qc'])
      expectAnswer(await send('GET', url), 200);
    expectAnswer(await send('GET', '/scan-groups?limit=101'), 400, 'limit is at most 100');
  });

  it('images are listed newest first by default', async () => {
    const org = (await orgOfAdmin()).id;
    const res1 = await send('GET', '/images?limit=100');
    expectAnswer(res1, 200);
    const { images } = await import('../../src/server/db/schema');
    const older = crypto.randomUUID();
    const newer = crypto.randomUUID();
    await t.app.ctx.db.insert(images).values([
      { id: older, name: 'old.czi', organizationId: org, createdAt: new Date(Date.now() - 60_000) },
      { id: newer, name: 'new.czi', organizationId: org, createdAt: new Date() },
    ]);
    const res = await send('GET', `/images?id=${older}&id=${newer}`);
    expect((res.json().result as Array<{ id: string }>).map((i) => i.id)).toEqual([newer, older]);
  });

  it('fix-upload search: at most 100 characters', async () => {
    expectAnswer(await send('GET', `/scan-groups?search=${'s'.repeat(100)}`), 200);
    expectAnswer(await send('GET', `/scan-groups?search=${'s'.repeat(101)}`), 400);
  });
});
