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

/**
 * What an actor is made of, as one string: the change numbers of the user's and the organization's
 * rows (every update of either takes a new one, migration 0002) and the ids of the teams below.
 */
const stampOf = (userSeq: unknown, orgSeq: unknown, childIds: readonly string[]) =>
  `${String(userSeq)}|${String(orgSeq)}|${[...childIds].sort().join(',')}`;

/** The stamp of a user's actor as the database has it now: one small statement, no rows to map. */
const STAMP_SQL = `SELECT u.change_seq AS u, o.change_seq AS o,
  ARRAY(SELECT c.id::text FROM organizations c WHERE o.id::text = ANY(c.parent_ids)) AS c
  FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1`;

const ACTORS_KEPT = 10_000;

/**
 * Loads the caller's actor, reusing the one loaded by an earlier request while its stamp is unchanged:
 * a change of policies, status or organization (user row), of the organization's policies (its row)
 * or of its teams answers a different stamp, and the actor is loaded afresh. The same Actor object is
 * handed to every request meanwhile, so its ability is built once (guard.ts).
 */
function actorLoader(app: FastifyInstance) {
  const known = new Map<string, { stamp: string; actor: Actor }>();
  return async (userId: string): Promise<Actor | undefined> => {
    const entry = known.get(userId);
    if (entry) {
      const [now] = await app.ctx.database.query<{ u: unknown; o: unknown; c: string[] }>(STAMP_SQL, [
        userId,
      ]);
      if (now && stampOf(now.u, now.o, now.c) === entry.stamp) return entry.actor;
      known.delete(userId);
    }
    const actor = await loadActor(app, userId);
    if (actor) {
      if (known.size >= ACTORS_KEPT) known.clear();
      known.set(userId, {
        stamp: stampOf(actor.user.changeSeq, actor.organization.changeSeq, actor.childIds),
        actor,
      });
    }
    return actor;
  };
}

export function installAuthentication(app: FastifyInstance): void {
  const actorFor = actorLoader(app);
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (!token) throw unauthorized(Session.notLoggedIn, 'NOT_LOGGED_IN');
    const claims = await app.ctx.sessions.verifyAccess(token);
    const actor = await actorFor(claims.userId);
    if (!actor) throw unauthorized(AuthText.invalidToken, 'INVALID_TOKEN');
    request.actor = actor;
  });
}

/** The signed-in caller; only for routes that are not public. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized(Session.notLoggedIn, 'NOT_LOGGED_IN');
  return request.actor;
}
