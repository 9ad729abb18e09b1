// The tag rules app and server share (src/api/tag-rules.ts): tags compare in any case, so a tag the
// study has in another case is refused by the add-tag field exactly as the server refuses it.
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/api/errors';
import { StudyRuleText } from '../../src/api/studies';
import { addTagProblem, tagChangeRefusal } from '../../src/api/tag-rules';

const tooMany = StudyRuleText.tooManyTags;

describe('tag rules', () => {
  it("the add-tag field refuses 'Urgent' on a study tagged 'urgent'", () => {
    expect(addTagProblem(['urgent'], 'Urgent')).toBe(errorText('TAG_EXISTS'));
    expect(addTagProblem(['urgent'], 'urgent')).toBe(errorText('TAG_EXISTS'));
    expect(addTagProblem(['urgent'], 'later')).toBeUndefined();
    expect(addTagProblem([], 'seventeen-chars-x')).toBe(StudyRuleText.tagTooLong);
  });

  it('the server answers a clash in another case with a conflict, a doubled list as invalid', () => {
    expect(tagChangeRefusal({ add: ['URGENT'], stored: ['urgent'], final: ['urgent'], tooMany })).toEqual({
      kind: 'conflict',
      message: errorText('TAG_EXISTS'),
    });
    expect(tagChangeRefusal({ replace: ['a', 'A'], stored: [], final: ['a'], tooMany })?.kind).toBe(
      'invalid',
    );
    expect(tagChangeRefusal({ add: ['b', 'B'], stored: [], final: ['b'], tooMany })?.kind).toBe('invalid');
  });

  it('the field and the server agree on every case of a stored tag', () => {
    for (const [stored, tag] of [
      [['Liver'], 'liver'],
      [['kidney'], 'KIDNEY'],
      [['a'], 'b'],
    ] as const) {
      const server = tagChangeRefusal({ add: [tag], stored, final: [...stored, tag], tooMany });
      expect(addTagProblem(stored, tag)).toBe(server?.message);
    }
  });

  it('more than 30 tags in the end is invalid', () => {
    const stored = Array.from({ length: 30 }, (_, i) => `t${i}`);
    expect(tagChangeRefusal({ add: ['x'], stored, final: [...stored, 'x'], tooMany })).toEqual({
      kind: 'invalid',
      message: tooMany,
    });
  });
});
