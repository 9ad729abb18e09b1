// /v2/reviews/groups and the 'review-groups' sync feed on PGlite and PostgreSQL, plus the §4.4
// display helpers (progress, QC percentage, status and processing texts) the app shares.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  imageProcessingText,
  qcPercentage,
  reviewGroupProgress,
  reviewStatusText,
} from '../../src/api/reviews';
import { reviewGroups, reviews } from '../../src/server/db/schema';
import { dbTargets, startApp, type TestApp } from './helpers';
import { caller, reviewLab, type Person, type ReviewLab } from './reviews-fixture';

const counts = (
  c: Partial<Record<'total' | 'completed' | 'accepted' | 'rejected' | 'flagged' | 'pending', number>>,
) => ({
  total: 0,
  completed: 0,
  accepted: 0,
  rejected: 0,
  flagged: 0,
  pending: 0,
  ...c,
});

describe('§4.4 display helpers', () => {
  it('computes progress as the actioned share, complete when it is all', () => {
    expect(reviewGroupProgress(counts({ total: 4, accepted: 1, rejected: 1, pending: 2 }))).toEqual({
      actioned: 2,
      total: 4,
      complete: false,
      progress: 0.5,
    });
    const done = reviewGroupProgress(counts({ total: 3, completed: 1, flagged: 1, accepted: 1 }));
    expect(done.complete).toBe(true);
    expect(done.progress).toBe(1);
  });

  it('computes the QC percentage as the rounded share other than passed and pending', () => {
    expect(qcPercentage(counts({ total: 3, accepted: 1, rejected: 1, flagged: 1 }))).toBe(67);
    expect(qcPercentage(counts({ total: 4, accepted: 2, pending: 2 }))).toBe(0);
    expect(qcPercentage(counts({}))).toBe(0);
  });

  it('words statuses and image processing as §4.4 says', () => {
    expect(reviewStatusText('pending', 'qc')).toBe('Pending Review');
    expect(reviewStatusText('pending')).toBe('Waiting');
    expect(reviewStatusText('accepted', 'qc')).toBe('Passed');
    expect(reviewStatusText('accepted')).toBe('Accepted');
    expect(reviewStatusText('rejected', 'qc')).toBe('Failed');
    expect(reviewStatusText('rejected')).toBe('Rejected');
    expect(reviewStatusText('flagged')).toBe('Flagged');
    expect(imageProcessingText('PROCESSING')).toBe('Pending');
    expect(imageProcessingText('completed')).toBe('Complete');
    expect(imageProcessingText('failed')).toBe('Incomplete');
  });
});

const targets = await dbTargets();

describe.each(targets)('review groups on $name', (target) => {
  let t: TestApp;
  let lab: ReviewLab;
  let call: ReturnType<typeof caller>;
  const group = crypto.randomUUID();
  const qcGroup = crypto.randomUUID();

  beforeAll(async () => {
    t = await startApp(target);
    lab = await reviewLab(t.app);
    call = caller(t.app);
    const { requester, reviewer1, reviewer2, qc } = lab.people;
    const post = async (who: Person, review: object) => {
      const res = await call(who, 'POST', '/v2/reviews', { review });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result.id as string;
    };
    for (const imageId of [lab.images.img1, lab.images.img2]) {
      for (const reviewer of [reviewer1, reviewer2])
        await post(requester, { reviewGroupUUID: group, imageId, reviewerId: reviewer.id });
    }
    const mine = await call(
      reviewer1,
      'GET',
      `/v2/reviews?reviewGroupUUID=${group}&reviewerId=${reviewer1.id}`,
    );
    for (const r of mine.json().result)
      await call(reviewer1, 'PATCH', `/v2/reviews/${r.id}`, { review: { status: 'completed' } });
    // reviewer2 hides one of theirs: only its author and reviewer still read it.
    const theirs = await call(
      reviewer2,
      'GET',
      `/v2/reviews?reviewGroupUUID=${group}&reviewerId=${reviewer2.id}`,
    );
    await call(reviewer2, 'PATCH', `/v2/reviews/${theirs.json().result[0].id}`, {
      review: { visibility: 'private' },
    });
    await post(qc, { reviewGroupUUID: qcGroup, imageId: lab.images.img1, type: 'qc', status: 'accepted' });
    await post(qc, { reviewGroupUUID: qcGroup, imageId: lab.images.img2, type: 'qc', status: 'rejected' });
    await post(qc, { reviewGroupUUID: qcGroup, imageId: lab.images.img3, type: 'qc', status: 'flagged' });
  });
  afterAll(() => t.close());

  const groups = async (who: Person, qs = '') => {
    const res = await call(who, 'GET', `/v2/reviews/groups?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      result: Array<Record<string, number | string>>;
      count: number;
      page: number;
      limit: number;
    };
  };

  it('counts each group per status over the reviews the caller may read', async () => {
    const { requester, plain, reviewer1 } = lab.people;
    const all = await groups(requester, `ids=${group}`);
    expect(all).toMatchObject({ count: 1, page: 1, limit: 10 });
    expect(all.result[0]).toMatchObject({ id: group, total: 4, completed: 2, pending: 2, accepted: 0 });
    expect(reviewGroupProgress(all.result[0] as never).progress).toBe(0.5);
    // The private review is neither the lab member's nor reviewer1's to read.
    expect((await groups(plain, `ids=${group}`)).result[0]).toMatchObject({ total: 3, pending: 1 });
    expect((await groups(reviewer1, `reviewGroupUUID=${group}`)).result[0]).toMatchObject({ total: 3 });
    expect((await groups(lab.people.outsider)).count).toBe(0);
  });

  it('gives the QC results of a QC group and lists every visible group', async () => {
    const qc = await groups(lab.people.qc, `ids=${qcGroup}&ids=${crypto.randomUUID()}`);
    expect(qc.result).toHaveLength(1);
    expect(qc.result[0]).toMatchObject({ total: 3, accepted: 1, rejected: 1, flagged: 1 });
    expect(qcPercentage(qc.result[0] as never)).toBe(67);
    const both = await groups(lab.people.requester, 'limit=1');
    expect(both.count).toBe(2);
    expect(both.result).toHaveLength(1);
  });

  it('refuses bad queries', async () => {
    for (const qs of ['ids=nope', 'limit=0', 'limit=101', 'page=-1', 'orderDirection=up']) {
      const res = await call(lab.people.requester, 'GET', `/v2/reviews/groups?${qs}`);
      expect(res.statusCode, qs).toBe(400);
    }
    expect((await call(undefined, 'GET', '/v2/reviews/groups')).statusCode).toBe(401);
  });

  it('keeps the review_groups row in step with every review write, in the sync feed', async () => {
    const [row] = await t.app.ctx.db.select().from(reviewGroups).where(eq(reviewGroups.id, group));
    expect(row).toMatchObject({ total: 4, completed: 2, pending: 2, organizationId: lab.orgs.lab });
    expect(row.memberUserIds.sort()).toEqual([lab.people.reviewer1.id, lab.people.reviewer2.id].sort());

    const pull = async (who: Person, cursor = '') => {
      const res = await call(who, 'GET', `/v2/sync/review-groups?limit=100${cursor && `&cursor=${cursor}`}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        result: Array<{ id: string; total: number }>;
        deletedIds: string[];
        cursor: string;
      };
    };
    const first = await pull(lab.people.reviewer1);
    expect(first.result.map((g) => g.id).sort()).toEqual([group, qcGroup].sort());
    // The feed counts what the caller may read, exactly like GET /v2/reviews/groups.
    const listed = await call(lab.people.reviewer1, 'GET', `/v2/reviews/groups?ids=${group}`);
    expect(first.result.find((g) => g.id === group)).toEqual(listed.json().result[0]);
    expect((await pull(lab.people.outsider)).result).toEqual([]);

    // A review completed moves only its group; its deletion (all of them) tombstones the group.
    const [pending] = await t.app.ctx.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.reviewGroupUUID, group), eq(reviews.status, 'pending')));
    await t.app.ctx.db.update(reviews).set({ status: 'completed' }).where(eq(reviews.id, pending.id));
    const moved = await pull(lab.people.reviewer1, first.cursor);
    expect(moved.result.map((g) => g.id)).toEqual([group]);
    await t.app.ctx.db.delete(reviews).where(eq(reviews.reviewGroupUUID, qcGroup));
    const gone = await pull(lab.people.reviewer1, moved.cursor);
    expect(gone.deletedIds).toEqual([qcGroup]);
    const ids = await call(lab.people.reviewer1, 'GET', '/v2/sync/review-groups/ids');
    expect(ids.json().ids).toEqual([group]);
  });
});
