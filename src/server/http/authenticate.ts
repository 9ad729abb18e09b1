// Resolves the caller of a /v2 request from `Authorization: Bearer` or the httpOnly access cookie,
// and loads their user and organization. Routes marked `config: { public: true }` skip it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectivePolicies } from '../../access/policies';
import { AuthText, Session } from '../../api/messages';
import { eq, sql } from 'drizzle-orm';
import { organizations, users } from '../db/schema';
import type { OrganizationRow, UserRow } from '../users/repository';
import { unauthorized } from './errors';

export const ACCESS_COOKIE = 'tessera_at';
export const REFRESH_COOKIE = 'tessera_rt';

export interface Actor {
  user: UserRow;
  organization: OrganizationRow;
  /** Every team below the user's organization. */
  childIds: string[];
  policies: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  return request.cookies[ACCESS_COOKIE];
}

/** The caller's user, organization and every team below it, in one round trip (it runs on every request). */
export async function loadActor(app: FastifyInstance, userId: string): Promise<Actor | undefined> {
  const [row] = await app.ctx.db
    .select({
      user: users,
      organization: organizations,
      childIds: sql<string[]>`ARRAY(SELECT c.id::text FROM organizations c
        WHERE ${organizations.id}::text = ANY(c.parent_ids))`,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(users.id, userId));
  if (!row || row.user.status !== 'active') return undefined;
  const { user, organization } = row;
  const policies = effectivePolicies(
    user.enabledPolicies,
    organization.enabledPolicies,
    organization.availablePolicies,
  );
  return { user, organization, childIds: row.childIds, policies };
}

export function installAuthentication(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (!token) throw unauthorized(Session.notLoggedIn, 'NOT_LOGGED_IN');
    const claims = await app.ctx.sessions.verifyAccess(token);
    const actor = await loadActor(app, claims.userId);
    if (!actor) throw unauthorized(AuthText.invalidToken, 'INVALID_TOKEN');
    request.actor = actor;
  });
}

/** The signed-in caller; only for routes that are not public. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized(Session.notLoggedIn, 'NOT_LOGGED_IN');
  return request.actor;
}
