// Who may read an image's tiles, decided once per user and image and kept a few seconds, so a viewer's
// hundreds of tiles a second cost no database round trip each (bench/tiles.ts; docs/decisions.md
// "Tile access"). The decision is the ordinary image read rule (src/access) on the image's row, for
// the caller's actor as loaded by authenticate.ts. It is asked again:
// - after ACCESS_DECISION_CACHE_SECONDS, with one statement reading the image's row and the actor's
//   stamp: so a change made through another server process (a share removed, an image archived or
//   deleted, a user's role, organization or status changed) is refused within that bound;
// - at once after any write this process answers (every POST/PUT/PATCH/DELETE of /v2, whatever it
//   was), so a change made through this process is refused from the next tile on;
// - when the actor authenticate.ts hands the request is another object (it reloaded the user).
// The session is not part of the decision: authenticate.ts checks it on every request (auth/sessions.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_DECISION_CACHE_SECONDS } from '../../api/constants';
import type { StorageStatus } from '../../api/enums';
import {
  IMAGE_PYRAMID_FIELD,
  asSubject,
  denialMessage,
  type ImageSubject,
  type TaggedSubject,
} from '../../access';
import { accessOf } from '../http/guard';
import { actorOf, confirmActor, pendingActorCheck, stampSql, type Actor } from '../http/authenticate';

/** Bound on the memo: one entry per user and image seen lately. */
const DECISIONS_KEPT = 20_000;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The image's access fields ($1; all null when there is none) and the actor's stamp now ($2). */
const IMAGE_AND_STAMP = `SELECT ${stampSql('$2')} AS stamp, i.id, i.organization_id, i.creator_user_id,
  i.inherited_assignees, i.scan_group_id, i.storage_status
  FROM (SELECT 1) AS one LEFT JOIN images i ON i.id = $1`;
interface Row {
  stamp: string | null;
  id: string | null;
  organization_id: string;
  creator_user_id: string | null;
  inherited_assignees: ImageSubject['inheritedAssignees'];
  scan_group_id: string | null;
  storage_status: string;
}

/** What the access rule says of one user and one image. */
export interface TileVerdict {
  /** The caller may read the image (else it is answered as not found). */
  readable: boolean;
  /** Why the image's pyramid is refused though the image is readable (its storage is not active). */
  pyramidDenial?: string;
}

interface Decision {
  actor: Actor;
  verdict: TileVerdict;
  checkedAtMs: number;
  /** The write count of this process when the rows were read (see `writes`). */
  writes: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    tileAccess: TileAccess;
  }
}

/** One TileAccess for the /v2 scope: its routes (the tile route) reach it as `app.tileAccess`. */
export function installTileAccess(v2: FastifyInstance): void {
  const access = new TileAccess(v2);
  access.watchWrites(v2);
  v2.decorate('tileAccess', access);
}

export class TileAccess {
  private readonly decisions = new Map<string, Decision>();
  /** Writes this process has answered; a decision read before the latest one is not used again. */
  private writes = 0;

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Counts the writes of every route of `scope` (the /v2 scope, where the writes are), before their
   * answer leaves: a client told its change is done is refused from its next tile on.
   */
  watchWrites(scope: FastifyInstance): void {
    scope.addHook('onSend', async (request, _reply, payload) => {
      if (MUTATING.has(request.method)) this.writes++;
      return payload;
    });
  }

  /**
   * The verdict on the image for the caller, whose actor is current once this returns (as a handler
   * of a checksActor route must leave it).
   */
  async verdictFor(request: FastifyRequest, imageId: string): Promise<TileVerdict> {
    const userId = actorOf(request).user.id;
    const key = `${userId}|${imageId}`;
    const known = this.decisions.get(key);
    if (
      known &&
      known.actor === request.actor &&
      known.writes === this.writes &&
      Date.now() - known.checkedAtMs < ACCESS_DECISION_CACHE_SECONDS * 1000
    ) {
      // The actor was current when the decision was made, within the bound: the pending check is met.
      request.actorCheck = undefined;
      return known.verdict;
    }
    const writes = this.writes;
    const checkedAtMs = Date.now();
    const check = pendingActorCheck(request);
    const [row] = await this.app.ctx.database.query<Row>(IMAGE_AND_STAMP, [imageId, userId], {
      prepared: true,
    });
    // The user, organization or teams changed since the actor was loaded: load it again (401 when
    // the user is gone or inactive).
    if (check && row?.stamp !== check.stamp) await confirmActor(request);
    else request.actorCheck = undefined;
    const verdict = judge(request, row);
    if (this.decisions.size >= DECISIONS_KEPT) this.decisions.clear();
    this.decisions.set(key, { actor: actorOf(request), verdict, checkedAtMs, writes });
    return verdict;
  }
}

/** The image read rule, and the pyramid's, on the row for the caller's ability (http/guard.ts). */
function judge(request: FastifyRequest, row: Row | undefined): TileVerdict {
  if (!row?.id) return { readable: false };
  const image = asSubject('Image', {
    id: row.id,
    organizationId: row.organization_id,
    creatorUserId: row.creator_user_id,
    inheritedAssignees: row.inherited_assignees,
    scanGroupId: row.scan_group_id ?? undefined,
    storageStatus: row.storage_status as StorageStatus,
  }) as TaggedSubject;
  const { ability } = accessOf(request);
  if (!ability.can('read', image)) return { readable: false };
  return { readable: true, pyramidDenial: denialMessage(ability, 'read', image, IMAGE_PYRAMID_FIELD) };
}
