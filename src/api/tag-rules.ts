// The tag rules of §5 that the app checks before an offline edit and the server checks again: one
// function each, so both sides refuse the same tags. Tags compare case-insensitively: 'Urgent' and
// 'urgent' are the same tag.
import { TAG_MAX_LENGTH, TAGS_PER_STUDY_MAX } from './constants';
import { errorText } from './errors';
import { StudyRuleText } from './studies';

/** The form two tags are compared in. */
export const tagKey = (tag: string): string => tag.toLowerCase();

/** The first tag that appears twice in `tags` (case-insensitively), or undefined. */
export function firstDuplicateTag(tags: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const t of tags) {
    if (seen.has(tagKey(t))) return t;
    seen.add(tagKey(t));
  }
  return undefined;
}

/** Whether `tags` already holds `tag` in any case. */
export const hasTag = (tags: readonly string[], tag: string): boolean =>
  tags.some((t) => tagKey(t) === tagKey(tag));

/** Why a tag change is refused: 'invalid' for a wrong request (400), 'conflict' with the stored tags (409). */
export interface TagRefusal {
  kind: 'invalid' | 'conflict';
  message: string;
}

/**
 * A change of a tag list (§5): a list with the same tag twice is invalid; adding a tag the list already
 * has conflicts with it; more than TAGS_PER_STUDY_MAX in the end is invalid (`tooMany` names the kind).
 */
export function tagChangeRefusal(c: {
  replace?: readonly string[];
  add?: readonly string[];
  stored: readonly string[];
  final: readonly string[];
  tooMany: string;
}): TagRefusal | undefined {
  const exists = errorText('TAG_EXISTS');
  if (c.replace && firstDuplicateTag(c.replace)) return { kind: 'invalid', message: exists };
  if (c.add?.length) {
    if (firstDuplicateTag(c.add)) return { kind: 'invalid', message: exists };
    const have = c.replace ?? c.stored;
    if (c.add.some((t) => hasTag(have, t))) return { kind: 'conflict', message: exists };
  }
  if (c.final.length > TAGS_PER_STUDY_MAX) return { kind: 'invalid', message: c.tooMany };
  return undefined;
}

/** What the add-tag field says about `tag` (trimmed) for a study holding `tags`, or undefined when it may be added. */
export function addTagProblem(tags: readonly string[], tag: string): string | undefined {
  if (tag.length > TAG_MAX_LENGTH) return StudyRuleText.tagTooLong;
  const refusal = tagChangeRefusal({
    add: [tag],
    stored: tags,
    final: [...tags, tag],
    tooMany: StudyRuleText.tooManyTags,
  });
  return refusal?.message;
}
