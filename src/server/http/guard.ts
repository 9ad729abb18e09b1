// Permission checks of a request against src/access: the caller's ability (built once per request),
// and 403s carrying the spec's denial text.
import type { FastifyRequest } from 'fastify';
import {
  asSubject,
  authorizeCreate,
  authorizeUpdate,
  defineAbilityFor,
  denialMessage,
  readScopeFor,
  resolveActor,
  type Action,
  type AppAbility,
  type ReadScope,
  type ResolvedActor,
  type SubjectMap,
  type SubjectType,
  type TaggedSubject,
} from '../../access';
import { actorOf, type Actor } from './authenticate';
import { deniedError, notFound } from './errors';

// Keyed by the loaded actor, which authenticate.ts reuses across requests while the user's and
// organization's rows are unchanged: the resolved actor, its ability (built on first use) and its read
// scopes are all functions of it, so they are built once per actor rather than per request.
interface Access {
  actor: ResolvedActor;
  ability?: AppAbility;
  scopes: Map<SubjectType, ReadScope>;
}
const cache = new WeakMap<Actor, Access>();

function resolvedOf(request: FastifyRequest): Access {
  const loaded = actorOf(request);
  let entry = cache.get(loaded);
  if (!entry) {
    const { user, organization, childIds } = loaded;
    entry = { actor: resolveActor({ user, organization: { ...organization, childIds } }), scopes: new Map() };
    cache.set(loaded, entry);
  }
  return entry;
}

export function accessOf(request: FastifyRequest): { actor: ResolvedActor; ability: AppAbility } {
  const entry = resolvedOf(request);
  entry.ability ??= defineAbilityFor(entry.actor);
  return { actor: entry.actor, ability: entry.ability };
}

export function scopeOf(request: FastifyRequest, type: SubjectType): ReadScope {
  const entry = resolvedOf(request);
  let scope = entry.scopes.get(type);
  if (!scope) entry.scopes.set(type, (scope = readScopeFor(entry.actor, type)));
  return scope;
}

/** Throws 403 with the spec's text unless the caller may. */
export function assertCan<T extends SubjectType>(
  request: FastifyRequest,
  action: Action,
  type: T,
  row?: SubjectMap[T],
  field?: string,
): void {
  const { ability } = accessOf(request);
  const message = denialMessage(ability, action, row ? (asSubject(type, row) as TaggedSubject) : type, field);
  if (message !== undefined) throw deniedError(message);
}

/** A row the caller cannot read is answered as not found, so ids of others' rows leak nothing. */
export function assertReadable<T extends SubjectType>(
  request: FastifyRequest,
  type: T,
  row: SubjectMap[T] | undefined,
  what: string,
): asserts row is SubjectMap[T] {
  if (!row || !accessOf(request).ability.can('read', asSubject(type, row) as TaggedSubject))
    throw notFound(what);
}

export function assertCreate<T extends SubjectType>(
  request: FastifyRequest,
  type: T,
  row: SubjectMap[T],
  bodyFields?: readonly string[],
): void {
  const verdict = authorizeCreate(accessOf(request).ability, type, row, bodyFields);
  if (!verdict.ok) throw deniedError(verdict.message);
}

export function assertUpdate<T extends SubjectType>(
  request: FastifyRequest,
  type: T,
  stored: SubjectMap[T],
  patch: Record<string, unknown>,
): void {
  const verdict = authorizeUpdate(accessOf(request).ability, type, stored, patch);
  if (!verdict.ok) throw deniedError(verdict.message);
}
