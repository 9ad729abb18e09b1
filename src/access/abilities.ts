// defineAbilityFor(actor): the CASL ability of one signed-in user, built from the rules of spec §6.2.
// The server checks it before every read and write; the app uses the same rules to grey controls.
//
// Order matters in CASL: a later rule wins over an earlier one. So: read rules (from read-scope.ts),
// then grants per area, then the denials that hold for everyone ("Nobody can delete themselves",
// "You can only create X for yourself", active-storage limits, traceback).
import { AbilityBuilder, createMongoAbility } from '@casl/ability';
import { resolveActor, type Actor, type ResolvedActor } from './actor';
import type { AppAbility, Builder } from './ability-types';
import { readConditions, readScopeFor } from './read-scope';
import { organizationDenials, organizationRules } from './rules-organizations';
import { slideDenials, slideRules } from './rules-slides';
import { studyDenials, studyRules } from './rules-studies';
import { SUBJECT_TYPES } from './subjects';

export type { AppAbility } from './ability-types';

function readRules({ can }: Builder, a: ResolvedActor): void {
  for (const type of SUBJECT_TYPES) {
    const conditions = readConditions(readScopeFor(a, type));
    if (conditions === null) can('read', type);
    else for (const c of conditions) can('read', type, c);
  }
}

export function defineAbilityFor(actor: Actor | ResolvedActor): AppAbility {
  const a = resolveActor(actor);
  const builder: Builder = new AbilityBuilder<AppAbility>(createMongoAbility);
  readRules(builder, a);
  organizationRules(builder, a);
  slideRules(builder, a);
  studyRules(builder, a);
  organizationDenials(builder, a);
  slideDenials(builder, a);
  studyDenials(builder, a);
  return builder.build();
}

/** An ability that allows nothing: before sign-in, or while the session resumes. */
export function emptyAbility(): AppAbility {
  return createMongoAbility<AppAbility>([]);
}
