// /v2/organizations through HTTP: lists by read scope, team and root creation, field-limited
// updates with set operations, deletion rules; on PGlite and (when it answers) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Denied } from '../../src/api/messages';
import { AccessText } from '../../src/api/access-messages';
import { activities, organizations, tombstones } from '../../src/server/db/schema';
import { DEMO_ORGANIZATION, seedDemo } from '../../src/server/seed/demo';
import {
  addLabFixture,
  addMember,
  addOrganization,
  bearer,
  dbTargets,
  login,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('organizations on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const call = (who: Persona, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2/organizations${url}`, headers: bearer(who.token), payload });
  const stored = async (id: string) =>
    (await t.app.ctx.db.select().from(organizations).where(eq(organizations.id, id)))[0];
  const names = (body: { result: Array<{ name: string }> }) => body.result.map((o) => o.name).sort();

  describe('GET /v2/organizations', () => {
    it('lists the whole own root to its members, with descendants and member counts', async () => {
      const res = await call(f.member, 'GET', '?limit=100');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(names(body)).toEqual(['Lab', 'Team A', 'Team A1', 'Team B']);
      expect(body.count).toBe(4);
      const lab = body.result.find((o: { id: string }) => o.id === f.orgs.lab);
      expect(lab.childIds.sort()).toEqual([f.orgs.teamA, f.orgs.subTeam, f.orgs.teamB].sort());
      expect(lab.numberOfUsers).toBe(2);
      expect(lab.rootId).toBe(f.orgs.lab);
    });

    it('lists everything to platform managers, and roots or direct teams by parentId', async () => {
      const all = await call(f.platform, 'GET', '?limit=100');
      expect(names(all.json())).toEqual([
        'Lab',
        'Other Lab',
        'Team A',
        'Team A1',
        'Team B',
        'Tessera Platform',
      ]);
      const roots = await call(f.platform, 'GET', '?parentId=null');
      expect(names(roots.json())).toEqual(['Lab', 'Other Lab', 'Tessera Platform']);
      const teams = await call(f.platform, 'GET', `?parentId=${f.orgs.lab}`);
      expect(names(teams.json())).toEqual(['Team A', 'Team B']);
    });

    it('keeps other roots out of sight, and narrows to what one administers with showAsAdmin', async () => {
      expect(names((await call(f.outsider, 'GET', '')).json())).toEqual(['Other Lab']);
      const admin = await call(f.member, 'GET', '?showAsAdmin=true');
      expect(names(admin.json())).toEqual(['Team A', 'Team A1']);
    });

    it('pages and searches', async () => {
      const page = await call(f.platform, 'GET', '?limit=2&page=2&orderDirection=asc');
      expect(page.json()).toMatchObject({ count: 6, page: 2, limit: 2 });
      expect(page.json().result).toHaveLength(2);
      expect(names((await call(f.member, 'GET', '?search=team%20a')).json())).toEqual(['Team A', 'Team A1']);
    });

    it('names a bad query parameter', async () => {
      const res = await call(f.member, 'GET', '?parentId=nope');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^querystring\.parentId: /);
      expect((await call(f.member, 'GET', '?limit=101')).json().message).toBe(
        'querystring.limit: limit is at most 100',
      );
    });

    it('needs a signed-in caller', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v2/organizations' });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('User is not logged in');
    });
  });

  describe('POST /v2/organizations', () => {
    it('creates a team under the own root, with rootId and parentIds computed and the parent policies', async () => {
      const res = await call(f.orgAdmin, 'POST', '', {
        organization: { name: 'Histology', parentId: f.orgs.teamA, info: { city: 'Leeds' } },
      });
      expect(res.statusCode).toBe(200);
      const team = res.json().result;
      expect(team).toMatchObject({
        name: 'Histology',
        rootId: f.orgs.lab,
        parentId: f.orgs.teamA,
        parentIds: [f.orgs.lab, f.orgs.teamA],
        childIds: [],
        numberOfUsers: 0,
        creatorUserId: f.orgAdmin.id,
        info: { city: 'Leeds' },
      });
      const parent = await stored(f.orgs.teamA);
      expect(team.availablePolicies).toEqual(parent.availablePolicies);
      const log = await t.app.ctx.db
        .select()
        .from(activities)
        .where(and(eq(activities.referenceId, team.id), eq(activities.actionType, 'create')));
      expect(log).toHaveLength(1);
    });

    it('keeps a team within its parent: availablePolicies ⊆ parent, enabledPolicies ⊆ available', async () => {
      const outside = await call(f.orgAdmin, 'POST', '', {
        organization: { name: 'X', parentId: f.orgs.lab, availablePolicies: ['superAdmin'] },
      });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().message).toBe(errorText('POLICY_NOT_IN_PARENT', { name: 'superAdmin' }));
      const enabled = await call(f.orgAdmin, 'POST', '', {
        organization: {
          name: 'X',
          parentId: f.orgs.lab,
          availablePolicies: ['createTeams'],
          enabledPolicies: ['modifyTeams'],
        },
      });
      expect(enabled.statusCode).toBe(400);
      expect(enabled.json().message).toBe(
        errorText('POLICY_NOT_AVAILABLE', { field: 'enabledPolicies', name: 'modifyTeams' }),
      );
      const unknown = await call(f.orgAdmin, 'POST', '', {
        organization: { name: 'X', parentId: f.orgs.lab, enabledPolicies: ['admin'] },
      });
      expect(unknown.json().message).toBe(
        errorText('NOT_A_POLICY', { field: 'enabledPolicies', name: 'admin' }),
      );
      expect(
        (await t.app.ctx.db.select().from(organizations).where(eq(organizations.name, 'X'))).length,
      ).toBe(0);
    });

    it('refuses a root to organization administrators, and any organization without createTeams', async () => {
      const root = await call(f.orgAdmin, 'POST', '', { organization: { name: 'Mine' } });
      expect(root.statusCode).toBe(403);
      expect(root.json().message).toBe(Denied.noCreatePermission);
      const team = await call(f.member, 'POST', '', { organization: { name: 'T', parentId: f.orgs.teamA } });
      expect(team.statusCode).toBe(403);
      expect(team.json().message).toBe(Denied.noCreatePermission);
    });

    it('does not let an outsider place a team in another root', async () => {
      const res = await call(f.outsider, 'POST', '', { organization: { name: 'Spy', parentId: f.orgs.lab } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(errorText('NO_PARENT'));
    });

    it('creates a root for platform managers, also from a flat body', async () => {
      const res = await call(f.platform, 'POST', '', { name: 'Southside Lab', userLimit: 5 });
      expect(res.statusCode).toBe(200);
      const org = res.json().result;
      expect(org).toMatchObject({ rootId: org.id, parentId: null, parentIds: [], userLimit: 5 });
      expect(org.availablePolicies).not.toContain('superAdmin');
      expect(org.availablePolicies).toContain('createTeams');
    });

    it('lets only a super admin make superAdmin available', async () => {
      const platform = await call(f.platform, 'POST', '', {
        organization: { name: 'Shadow', availablePolicies: ['superAdmin'] },
      });
      expect(platform.statusCode).toBe(403);
      expect(platform.json().message).toBe(errorText('SUPER_ADMIN_ONLY'));
      const admin = await call(f.superAdmin, 'POST', '', {
        organization: { name: 'Trusted', availablePolicies: ['superAdmin'] },
      });
      expect(admin.statusCode).toBe(200);
    });

    it('names bad input', async () => {
      const blank = await call(f.platform, 'POST', '', { organization: { name: '' } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toBe('body.organization.name: Name is required');
      const extra = await call(f.platform, 'POST', '', { organization: { name: 'A', rootId: f.orgs.lab } });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().message).toMatch(/^body\.organization: .*rootId/);
      const expiry = await call(f.platform, 'POST', '', {
        organization: {
          name: 'A',
          scanGroupSettings: { maxDefaultActiveExpiryDays: 5, defaultActiveExpiryDays: 9 },
        },
      });
      expect(expiry.json().message).toBe(errorText('EXPIRY_ABOVE_MAX'));
      const admin = await call(f.platform, 'POST', '', {
        organization: { name: 'A', adminUserId: f.member.id },
      });
      expect(admin.json().message).toBe(errorText('ADMIN_NOT_MEMBER'));
    });
  });

  describe('GET /v2/organizations/:id', () => {
    it('answers a readable organization, 404 for another root, 400 for a bad id', async () => {
      const ok = await call(f.member, 'GET', `/${f.orgs.teamB}`);
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.name).toBe('Team B');
      const hidden = await call(f.outsider, 'GET', `/${f.orgs.lab}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Organization not found');
      expect((await call(f.member, 'GET', '/nope')).json().message).toBe('params.id: must be a valid id');
    });
  });

  describe('PATCH /v2/organizations/:id', () => {
    it('lets modifyTeams change a team’s policies and limits, trimming the teams below it', async () => {
      const res = await call(f.orgAdmin, 'PATCH', `/${f.orgs.teamA}`, {
        organization: { userLimit: 10 },
        remove: { availablePolicies: ['manageOrganizationQC'] },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result.availablePolicies).not.toContain('manageOrganizationQC');
      expect(res.json().result.enabledPolicies).not.toContain('manageOrganizationQC');
      expect(res.json().result.userLimit).toBe(10);
      const sub = await stored(f.orgs.subTeam);
      expect(sub.availablePolicies).not.toContain('manageOrganizationQC');
      expect(sub.enabledPolicies).not.toContain('manageOrganizationQC');
    });

    it('merges two set edits instead of overwriting', async () => {
      await call(f.orgAdmin, 'PATCH', `/${f.orgs.teamB}`, {
        organization: { enabledPolicies: ['createTeams'] },
      });
      await call(f.orgAdmin, 'PATCH', `/${f.orgs.teamB}`, { add: { enabledPolicies: ['modifyTeams'] } });
      await call(f.orgAdmin, 'PATCH', `/${f.orgs.teamB}`, { add: { enabledPolicies: ['createTeamUsers'] } });
      const res = await call(f.orgAdmin, 'PATCH', `/${f.orgs.teamB}`, {
        remove: { enabledPolicies: ['createTeams'] },
      });
      expect(res.json().result.enabledPolicies).toEqual(['modifyTeams', 'createTeamUsers']);
    });

    it('lets modifyOrganization change the own info and defaults, but not its name or availablePolicies', async () => {
      const ok = await call(f.orgAdmin, 'PATCH', `/${f.orgs.lab}`, {
        organization: { info: { city: 'York' }, scanGroupSettings: { defaultActiveExpiryDays: 30 } },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().result.info.city).toBe('York');
      const name = await call(f.orgAdmin, 'PATCH', `/${f.orgs.lab}`, { organization: { name: 'Renamed' } });
      expect(name.statusCode).toBe(403);
      expect(name.json().message).toBe(AccessText.generic);
      const avail = await call(f.orgAdmin, 'PATCH', `/${f.orgs.lab}`, {
        add: { availablePolicies: ['superAdmin'] },
      });
      expect(avail.statusCode).toBe(403);
      expect((await stored(f.orgs.lab)).name).toBe('Lab');
    });

    it('treats a field sent unchanged as no change', async () => {
      const res = await call(f.orgAdmin, 'PATCH', `/${f.orgs.lab}`, { organization: { name: 'Lab' } });
      expect(res.statusCode).toBe(200);
    });

    it('refuses members without the policy and outsiders', async () => {
      const member = await call(f.member, 'PATCH', `/${f.orgs.teamA}`, { organization: { userLimit: 1 } });
      expect(member.statusCode).toBe(403);
      const outsider = await call(f.outsider, 'PATCH', `/${f.orgs.teamA}`, {
        organization: { userLimit: 1 },
      });
      expect(outsider.statusCode).toBe(404);
      expect((await stored(f.orgs.teamA)).userLimit).toBe(10);
    });

    it('names bad values', async () => {
      const expiry = await call(f.platform, 'PATCH', `/${f.orgs.teamB}`, {
        organization: { scanGroupSettings: { maxDefaultActiveExpiryDays: 1, defaultActiveExpiryDays: 2 } },
      });
      expect(expiry.statusCode).toBe(400);
      expect(expiry.json().message).toBe(errorText('EXPIRY_ABOVE_MAX'));
      const parent = await call(f.platform, 'PATCH', `/${f.orgs.teamB}`, {
        add: { availablePolicies: ['superAdmin'] },
      });
      expect(parent.json().message).toBe(errorText('POLICY_NOT_IN_PARENT', { name: 'superAdmin' }));
      const key = await call(f.platform, 'PATCH', `/${f.orgs.teamB}`, {
        organization: { rootId: f.orgs.lab },
      });
      expect(key.statusCode).toBe(400);
    });
  });

  describe('DELETE /v2/organizations/:id', () => {
    it('lets platform managers delete an empty organization, leaving a tombstone', async () => {
      const id = await addOrganization(t.app, { name: 'Empty' });
      const res = await call(f.platform, 'DELETE', `/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ result: { id } });
      expect(await stored(id)).toBeUndefined();
      const stone = await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, id));
      expect(stone).toHaveLength(1);
    });

    it('refuses an organization that still has teams or users', async () => {
      const id = await addOrganization(t.app, { name: 'Busy' });
      await addMember(t.app, { email: 'busy@lab.test', organizationId: id });
      const res = await call(f.platform, 'DELETE', `/${id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(errorText('NOT_EMPTY'));
      expect((await call(f.platform, 'DELETE', `/${f.orgs.lab}`)).statusCode).toBe(409);
    });

    it('refuses the own organization, even to a super admin', async () => {
      const res = await call(f.superAdmin, 'DELETE', `/${f.orgs.platform}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(Denied.deleteOwnOrganization);
      const own = await call(f.orgAdmin, 'DELETE', `/${f.orgs.lab}`);
      expect(own.json().message).toBe(Denied.deleteOwnOrganization);
    });

    it('refuses organization administrators a team', async () => {
      const res = await call(f.orgAdmin, 'DELETE', `/${f.orgs.subTeam}`);
      expect(res.statusCode).toBe(403);
      expect(await stored(f.orgs.subTeam)).toBeDefined();
    });
  });
});

const names = (body: { result: Array<{ name: string }> }) => body.result.map((o) => o.name).sort();

describe.each(targets)('demo seed on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('builds the Northside lab once, with sign-ins that work and a catalogue the lab can use', async () => {
    const seeded = await seedDemo(t.app.ctx.db);
    expect(seeded).toBeDefined();
    expect(await seedDemo(t.app.ctx.db)).toBeUndefined();
    const users = seeded?.users ?? {};
    const as = async (key: string, url: string) => {
      const { access } = await login(t.app, users[key].email, users[key].password);
      const res = await t.app.inject({ method: 'GET', url: `/v2${url}`, headers: bearer(access) });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const orgs = await as('admin', '/organizations?limit=100');
    expect(names(orgs)).toEqual(['Histology Core', DEMO_ORGANIZATION, 'Research Imaging']);
    const lab = orgs.result.find((o: { name: string }) => o.name === DEMO_ORGANIZATION);
    expect(lab.numberOfUsers).toBe(2);
    expect((await as('technician', '/organs?limit=100')).count).toBe(14);
    expect((await as('technician', '/pipelines')).count).toBe(3);
    expect((await as('pathologist', '/predictors')).count).toBe(5);
    expect((await as('platform', '/organizations?parentId=null')).count).toBe(2);
  });
});
