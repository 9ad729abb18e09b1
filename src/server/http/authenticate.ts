// Resolves the caller of a /v2 request from `Authorization: Bearer` or the httpOnly access cookie,
// checks that the token's session has not ended (auth/sessions.ts), and loads their user and
// organization. Routes marked `config: { public: true }` skip it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { effectivePolicies } from '../../access/policies';
import { eq, sql } from 'drizzle-orm';
import { organizations, users, type OrganizationRow, type UserRow } from '../db/schema';
import { apiError } from './errors';

export const ACCESS_COOKIE = 'tessera_at';
export const REFRESH_COOKIE = 'tessera_rt';

export interface Actor {
  user: UserRow;
  organization: OrganizationRow;
  /** Every team below the user's organization. */
  childIds: string[];
  policies: string[];
}

/** A cached actor handed to a handler that checks it itself, in its own statement (checksActor). */
interface PendingCheck {
  userId: string;
  /** The stamp the actor was loaded with; the handler compares the one its statement read. */
  stamp: string;
  reload(): Promise<Actor | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
    actorCheck?: PendingCheck;
    /** The session of the caller's access token (sign-in), for calls that end the others. */
    sessionId?: string;
  }
  interface FastifyContextConfig {
    /**
     * The handler reads the caller's stamp (stampSql) in its own statement and calls confirmActor
     * when it differs, which saves the stamp statement, a round trip, per request (the lists).
     */
    checksActor?: boolean;
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
      // `@>`, which the parent_ids GIN index answers (migration 0018), as actor_stamp does.
      childIds: sql<string[]>`ARRAY(SELECT c.id::text FROM organizations c
        WHERE c.parent_ids @> ARRAY[${organizations.id}::text])`,
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
 * rows (every update of either takes a new one, migration 0002) and the ids of the teams below, in
 * code-unit order (JavaScript's sort, PostgreSQL's "C" collation).
 */
const stampOf = (actor: Actor) =>
  `${actor.user.changeSeq}|${actor.organization.changeSeq}|${[...actor.childIds].sort().join(',')}`;

/**
 * The stamp of the actor of user `userParam` (a statement's parameter) as the database has it now, as
 * one SQL expression: NULL when the user is gone. The same text as stampOf. actor_stamp (migration
 * 0018) is a function so that a list statement planned for each request does not plan it each time.
 */
export const stampSql = (userParam: string) => `actor_stamp(${userParam})`;

const STAMP_SQL = `SELECT ${stampSql('$1')} AS stamp`;

const ACTORS_KEPT = 10_000;

/**
 * Loads the caller's actor, reusing the one loaded by an earlier request while its stamp is unchanged:
 * a change of policies, status or organization (user row), of the organization's policies (its row)
 * or of its teams answers a different stamp, and the actor is loaded afresh. The same Actor object is
 * handed to every request meanwhile, so its ability is built once (guard.ts).
 */
function actorLoader(app: FastifyInstance) {
  const known = new Map<string, { stamp: string; actor: Actor }>();
  const load = async (userId: string): Promise<Actor | undefined> => {
    known.delete(userId);
    const actor = await loadActor(app, userId);
    if (actor) {
      if (known.size >= ACTORS_KEPT) known.clear();
      known.set(userId, { stamp: stampOf(actor), actor });
    }
    return actor;
  };
  return {
    /** The user's actor, checked against the database now (one small prepared statement). */
    async checked(userId: string): Promise<Actor | undefined> {
      const entry = known.get(userId);
      if (entry) {
        const [now] = await app.ctx.database.query<{ stamp: string | null }>(STAMP_SQL, [userId], {
          prepared: true,
        });
        if (now?.stamp === entry.stamp) return entry.actor;
      }
      return load(userId);
    },
    /** The cached actor and what its handler must check, or undefined when none is cached. */
    pending(userId: string): { actor: Actor; check: PendingCheck } | undefined {
      const entry = known.get(userId);
      return (
        entry && { actor: entry.actor, check: { userId, stamp: entry.stamp, reload: () => load(userId) } }
      );
    },
  };
}

export function installAuthentication(app: FastifyInstance): void {
  const actors = actorLoader(app);
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (!token) throw apiError('NOT_LOGGED_IN');
    const claims = await app.ctx.sessions.verifyAccess(token);
    await app.ctx.sessions.assertLive(claims.sessionId);
    request.sessionId = claims.sessionId;
    const pending = request.routeOptions.config.checksActor ? actors.pending(claims.userId) : undefined;
    if (pending) {
      request.actor = pending.actor;
      request.actorCheck = pending.check;
      return;
    }
    const actor = await actors.checked(claims.userId);
    if (!actor) throw apiError('INVALID_TOKEN');
    request.actor = actor;
  });
}

/** The check a checksActor handler still owes for this request (undefined: the actor is current). */
export const pendingActorCheck = (request: FastifyRequest): PendingCheck | undefined => request.actorCheck;

/**
 * For a checksActor handler whose statement read a stamp other than the cached actor's: loads the
 * actor afresh (401 when the user is gone or inactive) so the handler can answer with it.
 */
export async function confirmActor(request: FastifyRequest): Promise<void> {
  const check = request.actorCheck;
  if (!check) return;
  request.actorCheck = undefined;
  const actor = await check.reload();
  if (!actor) throw apiError('INVALID_TOKEN');
  request.actor = actor;
}

/** The signed-in caller; only for routes that are not public. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw apiError('NOT_LOGGED_IN');
  return request.actor;
}
