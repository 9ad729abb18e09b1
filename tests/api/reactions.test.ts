// /v2/reactions through HTTP on PGlite and PostgreSQL: one heart per user per slide, lists by slide
// and creator within the read scope, deleting one's own only (§7, §8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import { reactions, tombstones } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('reactions on $name', (target) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let colleague: { id: string; token: string };
  let outsider: { id: string; token: string };
  let slideId: string;

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    const other = await addOrganization(t.app, { name: 'Other' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['createOrganizationLabels'],
    });
    colleague = await memberToken(t.app, { email: 'colleague@lab.test', organizationId: lab });
    outsider = await memberToken(t.app, { email: 'out@other.test', organizationId: other });
    slideId = (await call(owner.token, 'POST', '/scan-groups', { scanGroup: {} })).json().result.id;
  });
  afterAll(() => t.close());

  function call(token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: payload as object });
  }
  const heart = (token: string, extra: Record<string, unknown> = {}) =>
    call(token, 'POST', '/reactions', {
      reactionType: 'heart',
      reference: 'ScanGroup',
      referenceId: slideId,
      ...extra,
    });
  const stored = async () => (await t.app.ctx.db.select().from(reactions)).length;

  it('adds one heart per user per slide; a repeat answers the existing one', async () => {
    const first = await heart(owner.token);
    expect(first.statusCode).toBe(200);
    expect(first.json().result).toMatchObject({
      creatorUserId: owner.id,
      reactionType: 'heart',
      reference: 'ScanGroup',
      referenceId: slideId,
    });
    const again = await heart(owner.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().result.id).toBe(first.json().result.id);
    expect((await heart(colleague.token)).statusCode).toBe(200);
    expect(await stored()).toBe(2);
  });

  it('refuses hearts on unreadable slides, for others, and bad bodies', async () => {
    const before = await stored();
    const hidden = await heart(outsider.token);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Slide not found');
    const forOther = await heart(owner.token, { creatorUserId: colleague.id });
    expect(forOther.statusCode).toBe(403);
    expect(forOther.json().message).toBe(Denied.noCreatePermission);
    for (const body of [
      { reactionType: 'like', reference: 'ScanGroup', referenceId: slideId },
      { reactionType: 'heart', reference: 'Study', referenceId: slideId },
      { reactionType: 'heart', reference: 'ScanGroup', referenceId: 'abc' },
      { reactionType: 'heart', reference: 'ScanGroup' },
    ]) {
      const res = await call(owner.token, 'POST', '/reactions', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/^body\./);
    }
    expect(await stored()).toBe(before);
  });

  it('lists hearts by slide and creator within the organization', async () => {
    const list = async (token: string, qs: string) => (await call(token, 'GET', `/reactions?${qs}`)).json();
    const bySlide = await list(colleague.token, `reactionType=heart&scanGroupId=${slideId}`);
    expect(bySlide.count).toBe(2);
    expect(
      (await list(colleague.token, `creatorUserId=${owner.id}`)).result.map(
        (r: { creatorUserId: string }) => r.creatorUserId,
      ),
    ).toEqual([owner.id]);
    expect((await list(outsider.token, `scanGroupId=${slideId}`)).count).toBe(0);
    const bad = await call(owner.token, 'GET', '/reactions?reactionType=like');
    expect(bad.statusCode).toBe(400);
  });

  it('deletes only one’s own heart, answering its id', async () => {
    const mine = (await heart(owner.token)).json().result.id;
    const theirs = await call(colleague.token, 'DELETE', `/reactions/${mine}`);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toBe(AccessText.generic);
    expect((await call(outsider.token, 'DELETE', `/reactions/${mine}`)).statusCode).toBe(404);
    const ok = await call(owner.token, 'DELETE', `/reactions/${mine}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ result: { id: mine } });
    expect((await call(owner.token, 'DELETE', `/reactions/${mine}`)).statusCode).toBe(404);
    const stones = await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, mine));
    expect(stones.map((s) => s.kind)).toEqual(['reactions']);
    const feed = await call(owner.token, 'GET', '/sync/reactions');
    expect(feed.json().deletedIds).toContain(mine);
  });
});
