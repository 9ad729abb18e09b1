// Inviting a user (POST /v2/users): a user in the inviter's organization or one of its teams, within
// the organization's userLimit, and an e-mail with the activation link. Status: `created` when the row
// is written, `pending` once the invitation has been sent, `active` when the link is used
// (auth/routes.ts). All in one transaction: when the e-mail cannot be sent, no user is left behind
// that could never be activated.
import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { UserText, type UserCreate } from '../../api/organizations';
import { recordActivity } from '../activities/record';
import { actionLink } from '../action-tokens/links';
import { ACTIVATION_TTL_MS, createActionToken } from '../action-tokens/tokens';
import { assertMailAllowed } from '../rate-limits/mail';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { actionTokens, organizations, users, type UserRow } from '../db/schema';
import { apiError, notFound } from '../http/errors';
import { accessOf, assertCreate, assertReadable } from '../http/guard';
import { touchOrganizations } from '../organizations/repository';
import { checkPolicies, checkSuperAdminGrant } from '../organizations/validate';
import { actorOf } from '../http/authenticate';

/** PostgreSQL's unique_violation: two invitations of one address raced past the check. */
/** Drizzle wraps the driver's error, so the code may sit on `cause`. */
function isUniqueViolation(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, cause } = e as { code?: unknown; cause?: unknown };
  return code === '23505' || (cause !== undefined && isUniqueViolation(cause));
}

export async function inviteUser(
  ctx: AppContext,
  request: FastifyRequest,
  body: z.output<typeof UserCreate>,
  linkBase: string,
): Promise<UserRow> {
  const { actor } = accessOf(request);
  const inviter = actorOf(request).user;
  const id = crypto.randomUUID();
  const organizationId = body.organizationId ?? actor.orgId;
  assertCreate(request, 'User', { id, organizationId }, Object.keys(body));

  try {
    return await ctx.db.transaction(async (tx) => {
      // Locking the organization serializes invitations into it, so the limit holds under races.
      const [org] = await tx
        .select()
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .for('update');
      if (!org) throw apiError('NO_ORGANIZATION');
      const enabledPolicies = [...new Set(body.enabledPolicies ?? [])];
      checkPolicies('enabledPolicies', enabledPolicies, org.availablePolicies);
      checkSuperAdminGrant(actor.superAdmin, enabledPolicies);
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, body.email));
      if (taken) throw apiError('EMAIL_TAKEN');
      if (org.userLimit !== null) {
        const [{ count }] = await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(users)
          .where(eq(users.organizationId, org.id));
        if (Number(count) >= org.userLimit) throw apiError('USER_LIMIT', { limit: org.userLimit });
      }
      const name = body.name ?? body.email.split('@')[0];
      await tx.insert(users).values({
        id,
        email: body.email,
        name,
        status: 'created',
        organizationId: org.id,
        enabledPolicies,
        creatorUserId: actor.userId,
      });
      await recordActivity(tx, {
        actionType: 'create',
        reference: 'User',
        referenceId: id,
        diff: { email: body.email, name, enabledPolicies },
        creatorUserId: actor.userId,
        organizationId: org.id,
      });
      await sendInvitation(ctx, tx, { id, email: body.email, name }, org.name, inviter, linkBase);
      await touchOrganizations(tx, [org.id]); // its numberOfUsers changed
      return markPending(tx, id, org.id, actor.userId);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw apiError('EMAIL_TAKEN');
    throw error;
  }
}

/** The invitation is out: the user now waits for them (created → pending), in the user's history. */
async function markPending(tx: Db, userId: string, organizationId: string, by: string): Promise<UserRow> {
  const [invited] = await tx
    .update(users)
    .set({ status: 'pending', updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  await recordActivity(tx, {
    actionType: 'update',
    reference: 'User',
    referenceId: userId,
    diff: { status: 'pending' },
    creatorUserId: by,
    organizationId,
  });
  return invited;
}

type Inviter = { name: string; email: string };

/** A fresh activation link by e-mail; the links sent before stop working (only the newest counts). */
async function sendInvitation(
  ctx: AppContext,
  tx: Db,
  user: { id: string; email: string; name: string },
  organizationName: string,
  inviter: Inviter,
  linkBase: string,
): Promise<void> {
  await tx
    .delete(actionTokens)
    .where(
      and(
        eq(actionTokens.userId, user.id),
        eq(actionTokens.purpose, 'activate'),
        isNull(actionTokens.usedAt),
      ),
    );
  const token = await createActionToken(tx, user.id, 'activate', ACTIVATION_TTL_MS);
  const link = actionLink(linkBase, 'activate', token);
  await ctx.mailer.send({
    to: user.email,
    subject: UserText.inviteSubject,
    replyTo: inviter.email,
    text:
      `Hello ${user.name},\n\n${inviter.name || inviter.email} invited you to join ${organizationName} on Tessera.\n` +
      `To choose your password and activate your account, open this link within 7 days:\n${link}\n`,
  });
}

/**
 * POST /v2/users/{id}/invitation: sends the invitation again to a user who has not activated yet (the
 * first e-mail was lost or its link expired). Whoever may invite into the user's organization may
 * resend; an active user is refused, since they sign in (or reset their password) instead.
 */
export async function resendInvitation(
  ctx: AppContext,
  request: FastifyRequest,
  userId: string,
  linkBase: string,
): Promise<UserRow> {
  const { actor } = accessOf(request);
  const inviter = actorOf(request).user;
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    assertReadable(request, 'User', row, 'User');
    if (!row) throw notFound('User');
    assertCreate(request, 'User', { id: row.id, organizationId: row.organizationId }, []);
    if (row.status === 'active') throw apiError('ALREADY_ACTIVE');
    await assertMailAllowed(tx, 'invitation', row.id, request.ip);
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, row.organizationId));
    await sendInvitation(ctx, tx, row, org?.name ?? '', inviter, linkBase);
    return markPending(tx, row.id, row.organizationId, actor.userId);
  });
}
