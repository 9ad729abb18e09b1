// Why an action is denied, in words: the spec's text when a rule carries one, else the spec's
// menu texts for the create buttons it names, else a generic text. Server 403 bodies and app
// tooltips both come from here, so they always agree.
import { AccessText } from '../api/access-messages';
import { Denied } from '../api/messages';
import type { AppAbility } from './ability-types';
import type { Action, SubjectType, TaggedSubject } from './subjects';

/** §2.5 and §5: what the create controls say when the user lacks the permission. */
const CREATE_TEXTS: Partial<Record<SubjectType, string>> = {
  Study: Denied.noStudyPermission,
  Review: Denied.noReviewPermission,
  ScanGroup: Denied.noLabelPermission,
  ScanOrder: Denied.noOrderPermission,
};

function typeOf(subject: SubjectType | TaggedSubject): SubjectType {
  return typeof subject === 'string' ? subject : subject.__caslSubjectType__;
}

/**
 * The text to show when `action` on `subject` (and `field`) is denied, or `undefined` when it is
 * allowed. Pass the tagged row (asSubject) to get row-specific texts such as
 * 'You can only download active images'.
 */
export function denialMessage(
  ability: AppAbility,
  action: Action,
  subject: SubjectType | TaggedSubject,
  field?: string,
): string | undefined {
  if (ability.can(action, subject, field)) return undefined;
  const rule = ability.relevantRuleFor(action, subject, field);
  if (rule?.inverted && rule.reason) return rule.reason;
  if (action === 'create') return CREATE_TEXTS[typeOf(subject)] ?? Denied.noCreatePermission;
  return AccessText.generic;
}

/** The tooltip of §5: the denial, and under it the line asking the user to contact their admin. */
export function denialTooltip(
  ...args: Parameters<typeof denialMessage>
): { message: string; hint: string } | undefined {
  const message = denialMessage(...args);
  return message === undefined ? undefined : { message, hint: Denied.contactAdmin };
}
