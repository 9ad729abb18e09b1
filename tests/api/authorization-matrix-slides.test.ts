// Who may call what, part two: every route of studies, slides (scan groups), images (download URLs
// and stats included), reviews and review groups, annotations, reactions and activities, against the
// six policy sets of authorization-matrix.test.ts. Each cell is the expected outcome, and each call is
// also held to what it did to the database: a denied call (and every GET) leaves the slide, study,
// review, annotation, reaction, activity, tombstone and job tables byte for byte as they were; an
// allowed write changes them. Each case gets fresh target rows. On PGlite and PostgreSQL.
//
// Columns: super admin | platform managers | lab admin | team member | QC reviewer | outsider (admin
// policies, other root). Cells: a status (200, 400, 403, 404; `403*`: with the row's spec message), or
// for a list `in`/`out`: 200 and the target row is (not) among the results.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Denied } from '../../src/api/messages';
import {
  activities,
  annotations,
  images,
  reactions,
  reviews,
  scanGroups,
  studies,
  users,
} from '../../src/server/db/schema';
import {
  addLabFixture,
  bearer,
  dbTargets,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { tableFingerprint } from './table-fingerprint';

const PERSONAS = ['superAdmin', 'platform', 'orgAdmin', 'member', 'qc', 'outsider'] as const;
type PersonaName = (typeof PERSONAS)[number];
/** The team member of this matrix also manages the team's slides and annotates. */
const MEMBER_EXTRA_POLICIES = ['manageOrganizationSlides', 'manageOrganizationAnnotations'];

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
  /** For `in`/`out` cells: the row to look for, and how to find ids in the answer (default result[].id). */
  target?: string;
  ids?: (body: unknown) => string[];
}
interface Ctx {
  t: TestApp;
  f: LabFixture;
  me: Persona;
}
type Setup = (c: Ctx) => Promise<Call> | Call;

const uid = () => crypto.randomUUID();
const db = (c: Ctx) => c.t.app.ctx.db;
const resultIds = (body: unknown) => (body as { result: Array<{ id: string }> }).result.map((r) => r.id);
const FUTURE = () => new Date(Date.now() + 30 * 86_400_000).toISOString();
const FILE_SIZE = 4242;
const POLYGON = {
  type: 'Feature',
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ],
    ],
  },
};
/** A lab user who is not the caller. */
const someoneElse = (c: Ctx) => (c.me.id === c.f.qc.id ? c.f.member.id : c.f.qc.id);

/** A slide of team A made by the team member, assigned to them and the team (as a new slide is). */
const slide = async (c: Ctx) => {
  const id = uid();
  await db(c)
    .insert(scanGroups)
    .values({
      id,
      simpleId: `M-${id.slice(0, 13)}`,
      organizationId: c.f.orgs.teamA,
      creatorUserId: c.f.member.id,
      assigneeUserIds: [c.f.member.id],
      assigneeOrgIds: [c.f.orgs.teamA],
    });
  return id;
};
/** A team A image on a fresh team slide, uploaded by the team member. */
const image = async (c: Ctx, storageStatus = 'active') => {
  const id = uid();
  await db(c)
    .insert(images)
    .values({
      id,
      name: `img-${id.slice(0, 8)}.czi`,
      organizationId: c.f.orgs.teamA,
      creatorUserId: c.f.member.id,
      status: 'completed',
      storageStatus,
      scanGroupId: await slide(c),
      fileSize: FILE_SIZE,
    });
  return id;
};
/** A study of team A made by the team member; `alsoLab` shares it with the whole lab too. */
const study = async (c: Ctx, opts: { alsoLab?: boolean; tag?: string } = {}) => {
  const id = uid();
  await db(c)
    .insert(studies)
    .values({
      id,
      name: `S-${id}`,
      tags: opts.tag ? [opts.tag] : [],
      organizationId: c.f.orgs.teamA,
      creatorUserId: c.f.member.id,
      assigneeUserIds: [c.f.member.id],
      assigneeOrgIds: opts.alsoLab ? [c.f.orgs.teamA, c.f.orgs.lab] : [c.f.orgs.teamA],
    });
  return id;
};
/** A pending standard review requested by the QC reviewer (who may request reviews) of the member. */
const review = async (c: Ctx, visibility = 'public') => {
  const id = uid();
  const reviewGroupUUID = uid();
  await db(c)
    .insert(reviews)
    .values({
      id,
      creatorUserId: c.f.qc.id,
      organizationId: c.f.orgs.lab,
      reviewGroupUUID,
      imageId: await image(c),
      reviewerId: c.f.member.id,
      visibility,
    });
  return { id, reviewGroupUUID };
};
const annotation = async (c: Ctx) => {
  const id = uid();
  const imageId = await image(c);
  await db(c)
    .insert(annotations)
    .values({ id, imageId, organizationId: c.f.orgs.teamA, creatorUserId: c.f.member.id, name: 'a' });
  return { id, imageId };
};
const heart = async (c: Ctx, by: Persona) => {
  const id = uid();
  const referenceId = await slide(c);
  await db(c)
    .insert(reactions)
    .values({ id, creatorUserId: by.id, organizationId: by.organizationId, referenceId });
  return { id, referenceId };
};
/** What the team member did to a team study, as the activity feed holds it. */
const studyActivity = async (c: Ctx) => {
  const referenceId = await study(c);
  await db(c).insert(activities).values({
    id: uid(),
    actionType: 'update',
    reference: 'Study',
    referenceId,
    creatorUserId: c.f.member.id,
    organizationId: c.f.orgs.teamA,
  });
  return referenceId;
};

// Cells: super admin, platform managers, lab admin, team member, QC reviewer, outsider.
// prettier-ignore
const MATRIX: Array<[string, string, Setup, string?]> = [
  ['list studies', 'in in in in in out', async (c) => { const s = await study(c); return { method: 'GET', url: `/studies?name=${s}`, target: s }; }],
  ['list study tags', 'in in in in in out', async (c) => { const tag = uid().slice(0, 16); await study(c, { tag }); return { method: 'GET', url: `/studies/tags?search=${tag}`, target: tag, ids: (b) => (b as { tags: string[] }).tags }; }],
  ['create a study', '200 200 403* 200 403* 403*', () => ({ method: 'POST', url: '/studies', payload: { study: { name: `New ${uid()}` } } }), Denied.noStudyPermission],
  ['create a study for someone else', '403* 403* 403 403* 403 403', (c) => ({ method: 'POST', url: '/studies', payload: { study: { name: `New ${uid()}`, creatorUserId: someoneElse(c) } } }), Denied.studiesForYourself],
  ['read a team study', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/studies/${await study(c)}` })],
  ['rename a team study', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/studies/${await study(c)}`, payload: { study: { name: `R ${uid()}` } } })],
  ['tag a study shared with the lab', '200 200 200 200 200 404', async (c) => ({ method: 'PATCH', url: `/studies/${await study(c, { alsoLab: true })}`, payload: { add: { tags: ['matrix'] } } })],
  ['rename a study shared with the lab', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/studies/${await study(c, { alsoLab: true })}`, payload: { study: { name: `R ${uid()}` } } })],
  ['share a team study with the QC reviewer', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/studies/${await study(c)}`, payload: { add: { assigneeUserIds: [c.f.qc.id] } } })],
  ['add a team slide to a team study', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/studies/${await study(c)}`, payload: { add: { scanGroupIds: [await slide(c)] } } })],
  ['delete a team study', '200 200 403 200 403 404', async (c) => ({ method: 'DELETE', url: `/studies/${await study(c)}` })],

  ['list slides', 'in in in in in out', async (c) => { const s = await slide(c); return { method: 'GET', url: `/scan-groups?id=${s}`, target: s }; }],
  ['create a slide label', '200 200 200 200 403 200', () => ({ method: 'POST', url: '/scan-groups', payload: { scanGroup: {} } })],
  ['create a slide label for team A', '200 200 403 200 403 403', (c) => ({ method: 'POST', url: '/scan-groups', payload: { scanGroup: { organizationId: c.f.orgs.teamA } } })],
  ['create a slide label for someone else', '403* 403* 403* 403* 403 403*', (c) => ({ method: 'POST', url: '/scan-groups', payload: { scanGroup: { creatorUserId: someoneElse(c) } } }), Denied.scanGroupsForYourself],
  ['read a team slide', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/scan-groups/${await slide(c)}` })],
  ['rename a team slide', '200 200 403 403 403 404', async (c) => ({ method: 'PATCH', url: `/scan-groups/${await slide(c)}`, payload: { scanGroup: { name: `R ${uid()}` } } })],
  ['schedule the archive of a team slide', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/scan-groups/${await slide(c)}`, payload: { scanGroup: { archiveAt: FUTURE() } } })],
  ['share a team slide with team B', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/scan-groups/${await slide(c)}`, payload: { add: { assigneeOrgIds: [c.f.orgs.teamB] } } })],
  ['delete a team slide', '200 200 403 403 403 404', async (c) => ({ method: 'DELETE', url: `/scan-groups/${await slide(c)}` })],

  ['list images', 'in in in in in out', async (c) => { const i = await image(c); return { method: 'GET', url: `/images?id=${i}`, target: i }; }],
  ['image stats', 'in in in in in out', async (c) => { const i = await image(c); return { method: 'GET', url: `/images/stats?id=${i}`, target: i, ids: (b) => ((b as { totalFileSize: number }).totalFileSize === FILE_SIZE ? [i] : []) }; }],
  ['read a team image', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/images/${await image(c)}` })],
  ['set a team image’s status', '200 200 403 403 403 404', async (c) => ({ method: 'PATCH', url: `/images/${await image(c)}`, payload: { image: { status: 'rejected' } } })],
  ['set an archived image’s status', '403* 403* 403 403 403 404', async (c) => ({ method: 'PATCH', url: `/images/${await image(c, 'archived')}`, payload: { image: { status: 'rejected' } } }), Denied.updateStatusActiveImages],
  ['download an active team image', '200 200 403 200 403 404', async (c) => ({ method: 'GET', url: `/images/${await image(c)}/download-url` })],
  ['download an archived team image', '403* 403* 403* 403* 403* 404', async (c) => ({ method: 'GET', url: `/images/${await image(c, 'archived')}/download-url` }), Denied.downloadActiveImages],
  ['thumbnail of an archived team image', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/images/${await image(c, 'archived')}/thumbnail/download-url` })],
  ['label picture of a team image', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/images/${await image(c)}/labels/download-url` })],

  ['list reviews', 'in in in in in out', async (c) => { const r = await review(c); return { method: 'GET', url: `/reviews?reviewGroupUUID=${r.reviewGroupUUID}`, target: r.id }; }],
  ['list review groups', 'in in in in in out', async (c) => { const r = await review(c); return { method: 'GET', url: `/reviews/groups?ids=${r.reviewGroupUUID}`, target: r.reviewGroupUUID }; }],
  ['read a review', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/reviews/${(await review(c)).id}` })],
  ['read a private review', '200 200 404 200 200 404', async (c) => ({ method: 'GET', url: `/reviews/${(await review(c, 'private')).id}` })],
  ['request a review of a team image', '200 200 403 403 200 403', async (c) => ({ method: 'POST', url: '/reviews', payload: { review: { reviewGroupUUID: uid(), imageId: await image(c), reviewerId: c.f.member.id } } })],
  ['request a review for someone else', '403* 403* 403 403 403* 403', async (c) => ({ method: 'POST', url: '/reviews', payload: { review: { reviewGroupUUID: uid(), imageId: await image(c), reviewerId: c.f.member.id, creatorUserId: someoneElse(c) } } }), Denied.reviewsForYourself],
  ['comment on a team image', '200 200 200 200 200 400', async (c) => ({ method: 'POST', url: '/reviews', payload: { review: { reviewGroupUUID: uid(), imageId: await image(c), type: 'comment', comment: 'Nice' } } })],
  ['record a QC result', '200 200 403 403 200 403', async (c) => ({ method: 'POST', url: '/reviews', payload: { review: { reviewGroupUUID: uid(), imageId: await image(c), type: 'qc', status: 'accepted' } } })],
  ['complete a review', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/reviews/${(await review(c)).id}`, payload: { review: { status: 'completed' } } })],
  ['edit a review’s comment', '200 200 403 200 200 404', async (c) => ({ method: 'PATCH', url: `/reviews/${(await review(c)).id}`, payload: { review: { comment: `C ${uid()}` } } })],

  ['list annotations', 'in out in in in out', async (c) => { const a = await annotation(c); return { method: 'GET', url: `/annotations?imageId=${a.imageId}`, target: a.id }; }],
  ['annotate a team image', '200 403 403 200 403 403', async (c) => ({ method: 'POST', url: '/annotations', payload: { annotation: { imageId: await image(c), name: 'Tumour', content: POLYGON } } })],
  ['annotate for someone else', '403* 403 403 403* 403 403', async (c) => ({ method: 'POST', url: '/annotations', payload: { annotation: { imageId: await image(c), content: POLYGON, creatorUserId: someoneElse(c) } } }), Denied.annotationsForYourself],
  ['read the member’s annotation', '200 404 200 200 200 404', async (c) => ({ method: 'GET', url: `/annotations/${(await annotation(c)).id}` })],
  ['change the member’s annotation', '200 404 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/annotations/${(await annotation(c)).id}`, payload: { annotation: { content: { type: 'Feature', n: uid() } } } })],
  ['delete the member’s annotation', '200 404 403 200 403 404', async (c) => ({ method: 'DELETE', url: `/annotations/${(await annotation(c)).id}` })],

  ['list hearts', 'in out in in in out', async (c) => { const h = await heart(c, c.f.member); return { method: 'GET', url: `/reactions?reactionType=heart&scanGroupId=${h.referenceId}`, target: h.id }; }],
  ['heart a team slide', '200 200 200 200 200 404', async (c) => ({ method: 'POST', url: '/reactions', payload: { reactionType: 'heart', reference: 'ScanGroup', referenceId: await slide(c) } })],
  ['heart a slide for someone else', '403 403 403 403 403 404', async (c) => ({ method: 'POST', url: '/reactions', payload: { reactionType: 'heart', reference: 'ScanGroup', referenceId: await slide(c), creatorUserId: someoneElse(c) } })],
  ['take back one’s own heart', '200 200 200 200 200 200', async (c) => ({ method: 'DELETE', url: `/reactions/${(await heart(c, c.me)).id}` })],
  ['take back the member’s heart', '403 404 403 200 403 404', async (c) => ({ method: 'DELETE', url: `/reactions/${(await heart(c, c.f.member)).id}` })],

  ['list activities', 'in out in in in out', async (c) => { const s = await studyActivity(c); return { method: 'GET', url: `/activities?referenceId=${s}`, target: s, ids: (b) => (b as { result: Array<{ referenceId: string }> }).result.map((a) => a.referenceId) }; }],
  ['list collaborators’ activities', 'in in in out in out', async (c) => { const s = await studyActivity(c); return { method: 'GET', url: `/activities?collaborator=true&referenceId=${s}`, target: s, ids: (b) => (b as { result: Array<{ referenceId: string }> }).result.map((a) => a.referenceId) }; }],
];

/** Everything a route of this matrix may write, as one fingerprint. */
const WATCHED = [
  'studies',
  'scan_groups',
  'images',
  'reviews',
  'review_groups',
  'annotations',
  'reactions',
  'activities',
  'tombstones',
  'jobs',
  'user_viewer_settings',
];
const fingerprint = (t: TestApp) => tableFingerprint(t, WATCHED);

const cases = MATRIX.flatMap(([route, cells, setup, message]) => {
  const outcomes = cells.split(' ');
  return PERSONAS.map((persona, i) => ({ route, persona, expected: outcomes[i], setup, message }));
});

const targets = await dbTargets();

describe.each(targets)('authorization matrix of slides and studies on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
    const [member] = await t.app.ctx.db.select().from(users).where(eq(users.id, f.member.id));
    await t.app.ctx.db
      .update(users)
      .set({ enabledPolicies: [...member.enabledPolicies, ...MEMBER_EXTRA_POLICIES] })
      .where(eq(users.id, f.member.id));
  });
  afterAll(() => t.close());

  it('has a cell for every persona in every row', () => {
    for (const [route, cells] of MATRIX) expect(cells.split(' '), route).toHaveLength(PERSONAS.length);
  });

  it.each(cases)('$route as $persona → $expected', async ({ persona, expected, setup, message }) => {
    const me = f[persona as PersonaName];
    const call = await setup({ t, f, me });
    const before = await fingerprint(t);
    const res = await t.app.inject({
      method: call.method,
      url: `/v2${call.url}`,
      headers: bearer(me.token),
      ...(call.payload ? { payload: call.payload } : {}),
    });
    const listed = expected === 'in' || expected === 'out';
    expect(res.statusCode, res.body).toBe(listed ? 200 : parseInt(expected, 10));
    if (listed) {
      const ids = (call.ids ?? resultIds)(res.json());
      expect(ids.includes(call.target!), `${call.target} listed`).toBe(expected === 'in');
    }
    if (expected.endsWith('*')) expect(res.json().message).toBe(message);

    // Reads and refusals write nothing; an allowed write shows in the tables.
    const after = await fingerprint(t);
    if (call.method === 'GET' || res.statusCode >= 400) expect(after, 'nothing written').toBe(before);
    else expect(after, 'the write is stored').not.toBe(before);
  });
});
