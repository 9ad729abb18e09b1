// /v2/mail: bug reports to the platform administrators (the Report Issue dialog, §2.10) and permission
// change requests to the administrators of the caller's organization (§7 send-bugs, request-change).
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { effectivePolicies, type Policy } from '../../access';
import { Ok } from '../../api/common';
import { MailText, RequestChangeBody, SendBugsBody } from '../../api/mail';
import { recordActivity } from '../activities/record';
import { assertMailAllowed } from '../rate-limits/mail';
import type { Db } from '../db/client';
import { organizations, users, type OrganizationRow, type UserRow } from '../db/schema';
import { actorOf } from '../http/authenticate';
import { checkPolicies } from '../organizations/validate';
import { setRequestedPolicies } from '../users/repository';

interface Recipient {
  email: string;
  name: string;
}

/** Active members of `orgs`, each with their effective policies there. */
async function activeMembers(db: Db, orgs: readonly OrganizationRow[]) {
  if (orgs.length === 0) return [];
  const byId = new Map(orgs.map((o) => [o.id, o]));
  const rows = await db
    .select()
    .from(users)
    .where(and(inArray(users.organizationId, [...byId.keys()]), eq(users.status, 'active')));
  return rows.map((user) => {
    const org = byId.get(user.organizationId) as OrganizationRow;
    const policies = effectivePolicies(user.enabledPolicies, org.enabledPolicies, org.availablePolicies);
    return { user, org, policies };
  });
}

/** The organizations' administrators: named (adminUserId, info.adminUsers) or holding `policy`. */
async function adminsOf(db: Db, orgs: readonly OrganizationRow[], policy: Policy): Promise<UserRow[]> {
  return (await activeMembers(db, orgs))
    .filter(
      ({ user, org, policies }) =>
        org.adminUserId === user.id ||
        (org.info.adminUsers ?? []).some((a) => a === user.id || a === user.email) ||
        policies.includes(policy),
    )
    .map((m) => m.user);
}

/** Super admins of the platform organization (organizations.isPlatform = 1). */
async function platformAdmins(db: Db): Promise<UserRow[]> {
  const orgs = await db.select().from(organizations).where(eq(organizations.isPlatform, 1));
  return (await activeMembers(db, orgs)).filter((m) => m.policies.includes('superAdmin')).map((m) => m.user);
}

/**
 * Who can grant a user's request: the own organization's administrators (modifyOrganizationUsers, or
 * named), else the nearest parent's (modifyTeamUsers, or named), else the platform's super admins.
 */
async function changeApprovers(db: Db, org: OrganizationRow, requesterId: string): Promise<UserRow[]> {
  const levels: Array<{ id: string; policy: Policy }> = [
    { id: org.id, policy: 'modifyOrganizationUsers' },
    ...[...org.parentIds].reverse().map((id) => ({ id, policy: 'modifyTeamUsers' as Policy })),
  ];
  for (const level of levels) {
    const orgs = await db.select().from(organizations).where(eq(organizations.id, level.id));
    const found = (await adminsOf(db, orgs, level.policy)).filter((u) => u.id !== requesterId);
    if (found.length) return found;
  }
  return (await platformAdmins(db)).filter((u) => u.id !== requesterId);
}

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, mailer, config } = app.ctx;

  const deliver = async (to: Recipient[], mail: { subject: string; text: string; replyTo: string }) => {
    const addresses = [...new Set(to.map((r) => r.email))];
    // Nobody to tell: the configured administrator address, if any, still hears of it.
    if (addresses.length === 0 && config.adminEmail) addresses.push(config.adminEmail);
    if (addresses.length === 0) app.log.warn({ subject: mail.subject }, 'mail has no recipient');
    for (const address of addresses) await mailer.send({ to: address, ...mail });
  };

  app.post('/send-bugs', { schema: { body: SendBugsBody, response: { 200: Ok } } }, async (request) => {
    const { user, organization } = actorOf(request);
    await assertMailAllowed(db, 'bug-report', user.id, request.ip);
    const who = user.name || user.email;
    await deliver(await platformAdmins(db), {
      subject: MailText.bugSubject(who),
      replyTo: user.email,
      text:
        `Reporter: ${who} <${user.email}>\nOrganization: ${organization.name}\n` +
        `Browser: ${request.headers['user-agent'] ?? 'unknown'}\n\n${request.body.message}\n`,
    });
    return { ok: true as const };
  });

  app.post(
    '/request-change',
    { schema: { body: RequestChangeBody, response: { 200: Ok } } },
    async (request) => {
      const { user, organization } = actorOf(request);
      const policies = [...new Set(request.body.policies ?? [])];
      checkPolicies('policies', policies);
      if (request.body.policies) {
        await db.transaction(async (tx) => {
          await setRequestedPolicies(tx, user.id, policies);
          await recordActivity(tx, {
            actionType: 'update',
            reference: 'User',
            referenceId: user.id,
            diff: { requestedPolicies: policies },
            creatorUserId: user.id,
            organizationId: user.organizationId,
          });
        });
      }
      const who = user.name || user.email;
      const asked = policies.length ? `\n\nPolicies requested: ${policies.join(', ')}` : '';
      await deliver(await changeApprovers(db, organization, user.id), {
        subject: MailText.changeSubject(who),
        replyTo: user.email,
        text: `${who} <${user.email}> of ${organization.name} asks for a change:\n\n${request.body.message}${asked}\n`,
      });
      return { ok: true as const };
    },
  );
};
