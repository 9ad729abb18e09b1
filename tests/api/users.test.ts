// /v2/users through HTTP: scoped lists and filters, e-mail availability, invitations (limit, mail,
// activation), name and policy updates with set operations, deletion; on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import { UserText } from '../../src/api/organizations';
import { activities, tombstones, users } from '../../src/server/db/schema';
import {
  addLabFixture,
  addMember,
  addOrganization,
  bearer,
  dbTargets,
  lastMail,
  login,
  memberToken,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

describe.each(targets)('users on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  let teamBUser: string;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
    teamBUser = await addMember(t.app, { email: 'bea@lab.test', organizationId: f.orgs.teamB });
  });
  afterAll(() => t.close());

  const call = (who: Persona, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2/users${url}`, headers: bearer(who.token), payload });
  const stored = async (id: string) => (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0];
  const emails = (res: { json(): { result: Array<{ email: string }> } }) =>
    res
      .json()
      .result.map((u) => u.email)
      .sort();

  describe('GET /v2/users', () => {
    it('shows a member the users of their team, its teams and its parents, not a sibling team', async () => {
      const res = await call(f.member, 'GET', '?limit=100');
      expect(res.statusCode).toBe(200);
      expect(emails(res)).toEqual(['member@lab.test', 'orgadmin@lab.test', 'qc@lab.test']);
      expect(res.json().count).toBe(3);
    });

    it('shows the lab administrator the whole lab, and platform managers everyone', async () => {
      expect(emails(await call(f.orgAdmin, 'GET', '?limit=100'))).toContain('bea@lab.test');
      expect(emails(await call(f.orgAdmin, 'GET', '?limit=100'))).not.toContain('outsider@other.test');
      expect(emails(await call(f.platform, 'GET', '?limit=100'))).toContain('outsider@other.test');
    });

    it('filters by organization, status and search text', async () => {
      expect(emails(await call(f.orgAdmin, 'GET', `?organizationId=${f.orgs.teamB}`))).toEqual([
        'bea@lab.test',
      ]);
      const two = await call(
        f.orgAdmin,
        'GET',
        `?organizationId=${f.orgs.teamB}&organizationId=${f.orgs.teamA}`,
      );
      expect(emails(two)).toEqual(['bea@lab.test', 'member@lab.test']);
      expect(emails(await call(f.orgAdmin, 'GET', '?search=QC'))).toEqual(['qc@lab.test']);
      expect(emails(await call(f.orgAdmin, 'GET', '?search=%25'))).toEqual([]);
      expect((await call(f.orgAdmin, 'GET', '?status=pending')).json().count).toBe(0);
      const bad = await call(f.orgAdmin, 'GET', '?status=gone');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/^querystring\.status/);
    });
  });

  describe('GET /v2/users/check-email', () => {
    it('answers whether an address is free, ignoring case', async () => {
      const taken = await call(f.orgAdmin, 'GET', '/check-email?email=QC@lab.test');
      expect(taken.json()).toEqual({ isEmailAvailable: false });
      const free = await call(f.orgAdmin, 'GET', '/check-email?email=new@lab.test');
      expect(free.json()).toEqual({ isEmailAvailable: true });
      const bad = await call(f.orgAdmin, 'GET', '/check-email?email=nope');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('querystring.email: Enter a valid e-mail address');
    });
  });

  describe('POST /v2/users (invite)', () => {
    it('creates a pending user in the own organization and e-mails a working activation link', async () => {
      const res = await call(f.orgAdmin, 'POST', '', {
        user: { email: 'Newbie@Lab.test', name: 'New Bie', enabledPolicies: ['createOrganizationLabels'] },
      });
      expect(res.statusCode).toBe(200);
      const user = res.json().result;
      expect(user).toMatchObject({
        email: 'newbie@lab.test',
        name: 'New Bie',
        status: 'pending',
        organizationId: f.orgs.lab,
        creatorUserId: f.orgAdmin.id,
        enabledPolicies: ['createOrganizationLabels'],
      });
      const mail = lastMail(t.dataDir) ?? '';
      expect(mail).toContain('To: newbie@lab.test');
      expect(mail).toContain(UserText.inviteSubject);
      const text = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '='); // undo quoted-printable
      const token = decodeURIComponent(/\/register\?token=(\S+)/.exec(text)?.[1] ?? '');
      const activate = await t.app.inject({
        method: 'POST',
        url: '/v2/auth/activate-user',
        payload: { token, password: 'welcome-aboard' },
      });
      expect(activate.json()).toHaveProperty('accessToken');
      expect((await stored(user.id)).status).toBe('active');
      await login(t.app, 'newbie@lab.test', 'welcome-aboard');
    });

    it('invites into a child team with createTeamUsers, also from a flat body', async () => {
      const res = await call(f.orgAdmin, 'POST', '', {
        email: 'teamy@lab.test',
        organizationId: f.orgs.subTeam,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({ organizationId: f.orgs.subTeam, name: 'teamy' });
    });

    it('refuses members without the policy, and other organizations', async () => {
      const member = await call(f.member, 'POST', '', { user: { email: 'x1@lab.test' } });
      expect(member.statusCode).toBe(403);
      expect(member.json().message).toBe(Denied.noCreatePermission);
      const outsider = await call(f.outsider, 'POST', '', {
        user: { email: 'x2@lab.test', organizationId: f.orgs.lab },
      });
      expect(outsider.statusCode).toBe(403);
      expect(await t.app.ctx.db.select().from(users).where(eq(users.email, 'x2@lab.test'))).toHaveLength(0);
    });

    it('enforces the organization’s user limit with a clear message', async () => {
      const small = await addOrganization(t.app, { name: 'Small', parentId: f.orgs.lab, userLimit: 1 });
      const first = await call(f.orgAdmin, 'POST', '', {
        user: { email: 's1@lab.test', organizationId: small },
      });
      expect(first.statusCode).toBe(200);
      const second = await call(f.orgAdmin, 'POST', '', {
        user: { email: 's2@lab.test', organizationId: small },
      });
      expect(second.statusCode).toBe(403);
      expect(second.json().message).toBe(
        'This organization has reached its limit of 1 user. Ask your administrator to raise it.',
      );
      expect(await t.app.ctx.db.select().from(users).where(eq(users.email, 's2@lab.test'))).toHaveLength(0);
    });

    it('refuses a taken address, unknown or unavailable policies, and bad input', async () => {
      const taken = await call(f.orgAdmin, 'POST', '', { user: { email: 'QC@lab.test' } });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe(errorText('EMAIL_TAKEN'));
      const unknown = await call(f.orgAdmin, 'POST', '', {
        user: { email: 'p1@lab.test', enabledPolicies: ['admin'] },
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(
        errorText('NOT_A_POLICY', { field: 'enabledPolicies', name: 'admin' }),
      );
      const unavailable = await call(f.orgAdmin, 'POST', '', {
        user: { email: 'p2@lab.test', enabledPolicies: ['superAdmin'] },
      });
      expect(unavailable.statusCode).toBe(400);
      expect(unavailable.json().message).toBe(
        errorText('POLICY_NOT_AVAILABLE', { field: 'enabledPolicies', name: 'superAdmin' }),
      );
      const email = await call(f.orgAdmin, 'POST', '', { user: { email: 'nope' } });
      expect(email.json().message).toBe('body.user.email: Enter a valid e-mail address');
      const status = await call(f.orgAdmin, 'POST', '', { user: { email: 'p3@lab.test', status: 'active' } });
      expect(status.statusCode).toBe(400);
    });
    it('lets only a super admin grant superAdmin', async () => {
      const platform = await call(f.platform, 'POST', '', {
        user: { email: 'sa1@lab.test', enabledPolicies: ['superAdmin'] },
      });
      expect(platform.statusCode).toBe(403);
      expect(platform.json().message).toBe(errorText('SUPER_ADMIN_ONLY'));
      const upgrade = await call(f.platform, 'PATCH', `/${f.platform.id}`, {
        add: { enabledPolicies: ['superAdmin'] },
      });
      expect(upgrade.statusCode).toBe(403);
      expect(upgrade.json().message).toBe(errorText('SUPER_ADMIN_ONLY'));
      const admin = await call(f.superAdmin, 'POST', '', {
        user: { email: 'sa2@lab.test', enabledPolicies: ['superAdmin'] },
      });
      expect(admin.statusCode).toBe(200);
    });
  });

  describe('GET /v2/users/:id', () => {
    it('answers a readable user and hides others as not found', async () => {
      expect((await call(f.member, 'GET', `/${f.orgAdmin.id}`)).json().result.email).toBe(
        'orgadmin@lab.test',
      );
      const hidden = await call(f.member, 'GET', `/${teamBUser}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('User not found');
    });
  });

  describe('PATCH /v2/users/:id', () => {
    it('lets everyone change their own name, but not their own policies', async () => {
      const name = await call(f.qc, 'PATCH', `/${f.qc.id}`, { user: { name: 'Quinn Cole' } });
      expect(name.statusCode).toBe(200);
      expect(name.json().result).toMatchObject({ name: 'Quinn Cole', search: 'quinn cole qc@lab.test' });
      const policies = await call(f.qc, 'PATCH', `/${f.qc.id}`, {
        add: { enabledPolicies: ['createTeams'] },
      });
      expect(policies.statusCode).toBe(403);
      expect(policies.json().message).toBe(AccessText.generic);
      expect((await stored(f.qc.id)).enabledPolicies).not.toContain('createTeams');
    });

    it('lets the administrator set a team user’s policies, merging set edits', async () => {
      const a = await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, {
        add: { enabledPolicies: ['createOrganizationLabels'] },
      });
      expect(a.statusCode).toBe(200);
      await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, {
        add: { enabledPolicies: ['manageOrganizationStudies'] },
      });
      const c = await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, {
        remove: { enabledPolicies: ['createOrganizationLabels'] },
      });
      expect(c.json().result.enabledPolicies).toEqual(['manageOrganizationStudies']);
      const log = await t.app.ctx.db.select().from(activities).where(eq(activities.referenceId, teamBUser));
      expect(log.length).toBeGreaterThanOrEqual(3);
    });

    it('refuses other users’ names to those without modify policies, and policies outside the organization', async () => {
      const other = await call(f.member, 'PATCH', `/${f.qc.id}`, { user: { name: 'Hacked' } });
      expect(other.statusCode).toBe(403);
      const outside = await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, {
        user: { enabledPolicies: ['superAdmin'] },
      });
      expect(outside.statusCode).toBe(400);
      expect(outside.json().message).toBe(
        errorText('POLICY_NOT_AVAILABLE', { field: 'enabledPolicies', name: 'superAdmin' }),
      );
    });

    it('accepts only name and enabledPolicies', async () => {
      const res = await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, { user: { email: 'evil@lab.test' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^body\.user: .*email/);
      const blank = await call(f.orgAdmin, 'PATCH', `/${teamBUser}`, { user: { name: ' ' } });
      expect(blank.json().message).toBe('body.user.name: Name is required');
    });
  });

  describe('DELETE /v2/users/:id', () => {
    it('refuses to delete oneself, even to a super admin', async () => {
      const res = await call(f.superAdmin, 'DELETE', `/${f.superAdmin.id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(Denied.deleteYourself);
      expect((await call(f.orgAdmin, 'DELETE', `/${f.orgAdmin.id}`)).json().message).toBe(
        Denied.deleteYourself,
      );
    });

    it('refuses members without the policy', async () => {
      const res = await call(f.member, 'DELETE', `/${f.qc.id}`);
      expect(res.statusCode).toBe(403);
      expect(await stored(f.qc.id)).toBeDefined();
    });

    it('deletes a team user, ending their sessions, with a tombstone', async () => {
      const gone = await memberToken(t.app, { email: 'gone@lab.test', organizationId: f.orgs.teamA });
      const res = await call(f.orgAdmin, 'DELETE', `/${gone.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ result: { id: gone.id } });
      expect(await stored(gone.id)).toBeUndefined();
      expect(await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, gone.id))).toHaveLength(1);
      const after = await t.app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(gone.token) });
      expect(after.statusCode).toBe(401);
    });
  });
});
