// Invitations end to end through HTTP: a new root organization with its administrator
// invited by the super admin, the status created → pending → active, the single-use activation link,
// the user limit, and what the activated administrator may then do; on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { activities, users } from '../../src/server/db/schema';
import {
  addLabFixture,
  bearer,
  dbTargets,
  lastMail,
  login,
  startApp,
  type LabFixture,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();

/** The activation token of the newest e-mail (quoted-printable undone). */
function tokenOfLastMail(dataDir: string): string {
  const text = (lastMail(dataDir) ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  return decodeURIComponent(/\/register\?token=(\S+)/.exec(text)?.[1] ?? '');
}

describe.each(targets)('invitations on $name', (target) => {
  let t: TestApp;
  let admin: string;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    admin = (await login(t.app)).access;
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(token), payload });

  it('takes a new organization from nothing to an active administrator who can invite', async () => {
    const org = await call(admin, 'POST', '/organizations', {
      organization: { name: 'Fresh Lab', userLimit: 2, info: { city: 'Ghent' } },
    });
    expect(org.statusCode).toBe(200);
    const orgId = org.json().result.id as string;
    const enabled = org.json().result.enabledPolicies as string[];
    expect(enabled).toContain('createOrganizationUsers');

    const free = await call(admin, 'GET', '/users/check-email?email=boss@fresh.test');
    expect(free.json()).toEqual({ isEmailAvailable: true });
    const invited = await call(admin, 'POST', '/users', {
      user: { email: 'boss@fresh.test', name: 'Boss', organizationId: orgId, enabledPolicies: enabled },
    });
    expect(invited.statusCode).toBe(200);
    const boss = invited.json().result;
    expect(boss.status).toBe('pending');
    const taken = await call(admin, 'GET', '/users/check-email?email=BOSS@fresh.test');
    expect(taken.json()).toEqual({ isEmailAvailable: false });

    // created → pending is in the user's history; the row itself waits as pending.
    const history = await t.app.ctx.db
      .select()
      .from(activities)
      .where(and(eq(activities.referenceId, boss.id), eq(activities.reference, 'User')))
      .orderBy(asc(activities.date));
    expect(history.map((a) => a.actionType)).toEqual(['create', 'update']);
    expect(history[1].diff).toEqual({ status: 'pending' });

    const admined = await call(admin, 'PATCH', `/organizations/${orgId}`, {
      organization: { adminUserId: boss.id },
    });
    expect(admined.json().result.adminUserId).toBe(boss.id);

    // A pending user cannot sign in before activating.
    const early = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/login',
      payload: { email: 'boss@fresh.test', password: 'whatever-1234' },
    });
    expect(early.statusCode).toBe(401);

    const token = tokenOfLastMail(t.dataDir);
    const activated = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/activate-user',
      payload: { token, password: 'boss-password-1' },
    });
    expect(activated.statusCode).toBe(200);
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, boss.id));
    expect(row.status).toBe('active');
    // The link is single use.
    const again = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/activate-user',
      payload: { token, password: 'boss-password-2' },
    });
    expect(again.statusCode).toBe(400);

    const bossToken = (await login(t.app, 'boss@fresh.test', 'boss-password-1')).access;
    const me = await call(bossToken, 'GET', '/auth/me');
    expect(me.json().organization.adminUserId).toBe(boss.id);

    // The administrator configures policies, creates a team and invites within the limit of 2.
    const trimmed = await call(bossToken, 'PATCH', `/organizations/${orgId}`, {
      remove: { enabledPolicies: ['manageOrganizationQC'] },
    });
    expect(trimmed.statusCode).toBe(200);
    expect(trimmed.json().result.enabledPolicies).not.toContain('manageOrganizationQC');
    const beforeTeam = (await call(bossToken, 'GET', '/sync/organizations')).json().cursor as string;
    const team = await call(bossToken, 'POST', '/organizations', {
      organization: { name: 'Fresh Histology', parentId: orgId },
    });
    expect(team.statusCode).toBe(200);
    // The parent's childIds (which the abilities over teams read) changed: the feed sends it again.
    await expect
      .poll(
        async () => {
          const page = (await call(bossToken, 'GET', `/sync/organizations?cursor=${beforeTeam}`)).json();
          return page.result.find((o: { id: string }) => o.id === orgId)?.childIds;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toEqual([team.json().result.id]);
    const before = (await call(bossToken, 'GET', '/sync/organizations')).json().cursor as string;
    const second = await call(bossToken, 'POST', '/users', {
      user: { email: 'tech@fresh.test', enabledPolicies: ['manageOrganizationStudies'] },
    });
    expect(second.statusCode).toBe(200);
    // The organization's numberOfUsers changed, so the sync feed sends it again.
    // (On PostgreSQL the feed holds back what other tests' open transactions may precede: ask again.)
    await expect
      .poll(
        async () => {
          const page = (await call(bossToken, 'GET', `/sync/organizations?cursor=${before}`)).json();
          return page.result.find((o: { id: string }) => o.id === orgId)?.numberOfUsers;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBe(2);
    const third = await call(bossToken, 'POST', '/users', { user: { email: 'extra@fresh.test' } });
    expect(third.statusCode).toBe(403);
    expect(third.json().message).toBe(
      'This organization has reached its limit of 2 users. Ask your administrator to raise it.',
    );
    // A policy the organization does not have available cannot be given to a user.
    const platformGrant = await call(bossToken, 'PATCH', `/users/${second.json().result.id}`, {
      add: { enabledPolicies: ['platformUserManagement'] },
    });
    expect(platformGrant.statusCode).toBe(400);
  });

  it('refuses a link of a user who was removed before activating', async () => {
    const invited = await call(admin, 'POST', '/users', { user: { email: 'gone@lab.test' } });
    const token = tokenOfLastMail(t.dataDir);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v2/users/${invited.json().result.id}`,
      headers: bearer(admin),
    });
    expect(removed.statusCode).toBe(200);
    const activate = await t.app.inject({
      method: 'POST',
      url: '/v2/auth/activate-user',
      payload: { token, password: 'too-late-123' },
    });
    expect(activate.statusCode).toBe(400);
  });

  it('sends the invitation again: only the newest link activates, and only while not yet active', async () => {
    const invited = await call(f.orgAdmin.token, 'POST', '/users', {
      user: { email: 'late@lab.test', organizationId: f.orgs.teamA },
    });
    expect(invited.statusCode).toBe(200);
    const id = invited.json().result.id as string;
    const first = tokenOfLastMail(t.dataDir);

    // Who may not invite into that organization may not resend; who cannot see the user gets 404.
    const byMember = await call(f.member.token, 'POST', `/users/${id}/invitation`);
    expect(byMember.statusCode).toBe(403);
    expect(tokenOfLastMail(t.dataDir)).toBe(first);
    const byOutsider = await call(f.outsider.token, 'POST', `/users/${id}/invitation`);
    expect(byOutsider.statusCode).toBe(404);

    const again = await call(f.orgAdmin.token, 'POST', `/users/${id}/invitation`);
    expect(again.statusCode).toBe(200);
    expect(again.json().result.status).toBe('pending');
    const second = tokenOfLastMail(t.dataDir);
    expect(second).not.toBe(first);

    const activate = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/auth/activate-user',
        payload: { token, password: 'late-but-here-1' },
      });
    expect((await activate(first)).statusCode).toBe(400);
    expect((await activate(second)).statusCode).toBe(200);

    const active = await call(f.orgAdmin.token, 'POST', `/users/${id}/invitation`);
    expect(active.statusCode).toBe(409);
    expect(active.json().message).toBe(errorText('ALREADY_ACTIVE'));
    const missing = await call(f.orgAdmin.token, 'POST', `/users/${crypto.randomUUID()}/invitation`);
    expect(missing.statusCode).toBe(404);
  });
});
