// The scan-group and study lists answer JSON that PostgreSQL keeps with each row (src/server/lists/
// page-statement.ts, the list_json columns of migration 0016); reading one row answers it
// through the entity mappers and zod. Both must say the same of every row, key for key, including
// nulls, jsonb fields, arrays, inherited assignees and timestamps with microseconds. And the caller
// check the list statement carries (authenticate.ts, checksActor) must follow a change made straight
// in the database, as another process would, on the very next request.
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organs, scanGroups, users } from '../../src/server/db/schema';
import { addOrganization, bearer, dbTargets, login, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('list JSON on $name', (target) => {
  let t: TestApp;
  let lab: string;
  let other: string;
  let admin: string;
  let member: { token: string; id: string };

  beforeAll(async () => {
    t = await startApp(target);
    lab = await addOrganization(t.app, { name: 'Json Lab' });
    other = await addOrganization(t.app, { name: 'Other Json Lab' });
    admin = (await login(t.app)).access;
    member = await memberToken(t.app, {
      email: 'member@json.test',
      organizationId: lab,
      policies: ['manageOrganizationStudies', 'uploadOrganizationImages', 'createOrganizationLabels'],
    });
  });
  afterAll(() => t.close());

  const call = async (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: object) => {
    const res = await t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload: body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  /** Every listed row equals the row read alone, with the same keys in the same order. */
  const sameAsReadAlone = async (token: string, kind: 'scan-groups' | 'studies', query: string) => {
    const list = await call(token, 'GET', `/${kind}?${query}`);
    expect(list.result.length).toBeGreaterThan(0);
    for (const row of list.result as Array<{ id: string }>) {
      const alone = (await call(token, 'GET', `/${kind}/${row.id}`)).result;
      expect(row).toStrictEqual(alone);
      expect(Object.keys(row)).toEqual(Object.keys(alone));
    }
    return list;
  };

  it('answers every field of a slide and a study as reading it alone does', async () => {
    const organ = crypto.randomUUID();
    await t.app.ctx.db.insert(organs).values({ id: organ, name: 'Kidney', animal: 'Rat' });
    const full = (
      await call(admin, 'POST', '/scan-groups', {
        scanGroup: {
          organizationId: lab,
          name: 'Full "quoted" \\ slide ü',
          notes: 'line one\nline two',
          LISInfo: { accession: 'A-1', nested: { values: [1, 2.5, null, true] } },
          organId: organ,
          tags: ['he', 'ihc'],
          archiveAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          assigneeOrgIds: [other],
        },
      })
    ).result.id as string;
    const bare = (await call(admin, 'POST', '/scan-groups', { scanGroup: { organizationId: lab } })).result
      .id as string;
    // Microseconds, which both answers cut to milliseconds.
    await t.app.ctx.db
      .update(scanGroups)
      .set({ lastUploadDate: sql`'2026-01-02 03:04:05.678999+00'::timestamptz` })
      .where(eq(scanGroups.id, bare));
    // A study gives its slides inherited assignees.
    await call(admin, 'POST', '/studies', {
      study: {
        name: 'Json study',
        organizationId: lab,
        tags: ['her2'],
        scanGroupIds: [full, bare],
        assigneeUserIds: [member.id],
      },
    });
    const [study] = (await call(admin, 'GET', `/studies?organizationId=${lab}`)).result as Array<{
      id: string;
    }>;
    await call(admin, 'PATCH', `/studies/${study.id}`, { study: { viewerOptions: { gamma: 1.2 } } });
    await call(admin, 'POST', '/studies', { study: { name: 'Bare study', organizationId: lab } });

    for (const token of [admin, member.token]) {
      const slides = await sameAsReadAlone(token, 'scan-groups', `organizationId=${lab}&limit=100`);
      expect(slides.count).toBe(2);
      await sameAsReadAlone(token, 'scan-groups', `organizationId=${lab}&orderBy=name&orderDirection=asc`);
      const studies = await sameAsReadAlone(token, 'studies', `organizationId=${lab}`);
      expect(studies.count).toBe(2);
      await sameAsReadAlone(token, 'studies', `slideId=${full}`);
    }
  });

  it('follows a change of the caller made by another process on the next list request', async () => {
    const url = `/scan-groups?organizationId=${lab}&limit=100`;
    const before = (await call(member.token, 'GET', url)).count as number;
    // A new team below the member's organization, written straight into the database: its slides
    // become readable to the member at once.
    const team = await addOrganization(t.app, { name: 'Json Team', parentId: lab });
    await call(admin, 'POST', '/scan-groups', { scanGroup: { organizationId: team } });
    const teamUrl = `/scan-groups?organizationId=${team}`;
    expect((await call(member.token, 'GET', teamUrl)).count).toBe(1);
    expect((await call(member.token, 'GET', url)).count).toBe(before);
    // Deactivated straight in the database: the next list call is refused.
    await t.app.ctx.db.update(users).set({ status: 'disabled' }).where(eq(users.id, member.id));
    for (const kind of ['scan-groups', 'studies']) {
      const res = await t.app.inject({ method: 'GET', url: `/v2/${kind}`, headers: bearer(member.token) });
      expect(res.statusCode).toBe(401);
    }
  });
});
