// The ability type shared by every rules file.
import type { AbilityBuilder, MongoAbility, MongoQuery } from '@casl/ability';
import type { Action, SubjectType, TaggedSubject } from './subjects';

/**
 * The plain-record member keeps rule conditions typed as generic Mongo queries: with tagged
 * interfaces alone CASL infers per-type conditions that reject dotted paths (`next.status`) and
 * `$elemMatch` on our optional arrays. Callers still pass tagged subjects (asSubject) or type names.
 */
export type AppAbility = MongoAbility<
  [Action, SubjectType | TaggedSubject | Record<PropertyKey, unknown>],
  MongoQuery
>;
export type Builder = AbilityBuilder<AppAbility>;
