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
import { actorOf } from './authenticate';
import { forbidden, notFound } from './errors';

const cache = new WeakMap<FastifyRequest, { actor: ResolvedActor; ability: AppAbility }>();

export function accessOf(request: FastifyRequest): { actor: ResolvedActor; ability: AppAbility } {
  let entry = cache.get(request);
  if (!entry) {
    const { user, organization, childIds } = actorOf(request);
    const actor = resolveActor({ user, organization: { ...organization, childIds } });
    entry = { actor, ability: defineAbilityFor(actor) };
    cache.set(request, entry);
  }
  return entry;
}

export const scopeOf = (request: FastifyRequest, type: SubjectType): ReadScope =>
  readScopeFor(accessOf(request).actor, type);

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
  if (message !== undefined) throw forbidden(message);
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
  if (!verdict.ok) throw forbidden(verdict.message);
}

export function assertUpdate<T extends SubjectType>(
  request: FastifyRequest,
  type: T,
  stored: SubjectMap[T],
  patch: Record<string, unknown>,
): void {
  const verdict = authorizeUpdate(accessOf(request).ability, type, stored, patch);
  if (!verdict.ok) throw forbidden(verdict.message);
}
