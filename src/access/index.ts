// The public face of src/access: import from here, not from the rule files.
export { POLICIES, effectivePolicies, isPolicy, type Policy } from './policies';
export {
  resolveActor,
  type Actor,
  type ActorOrganization,
  type ActorUser,
  type ResolvedActor,
} from './actor';
export { defineAbilityFor, emptyAbility, type AppAbility } from './abilities';
export * from './subjects';
export {
  readScopeFor,
  matchesReadScope,
  readConditions,
  readsAllOf,
  type ReadScope,
  type ScopedRead,
} from './read-scope';
export { denialMessage, denialTooltip } from './denial';
export {
  authorizeCreate,
  authorizeUpdate,
  patchFields,
  redactImage,
  SERVER_MANAGED_FIELDS,
  type Verdict,
} from './fields';
export * from './menu';
export { canActOnRequest, type RequestKind, type ReviewRequestFacts } from './reviewers';
export {
  USER_MODIFIABLE_FIELDS,
  TEAM_MODIFIABLE_FIELDS,
  OWN_ORGANIZATION_FIELDS,
} from './rules-organizations';
export { SLIDE_SHARE_FIELDS, IMAGE_UPLOAD_FIELDS, IMAGE_PYRAMID_FIELD } from './rules-slides';
export { STUDY_FIELDS, QC_RESULTS } from './rules-studies';
