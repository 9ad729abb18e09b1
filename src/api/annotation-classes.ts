// Annotation classes (spec-free, ours): an organization's list of names and colours its people
// classify annotations with; a team uses its own and its ancestors' classes. Managed by those who may
// add annotations in that organization (manageOrganizationAnnotations). An annotation carries its class
// in its content as QuPath does (`properties.classification {name, color: [r, g, b]}`), matched by name.
import { z } from 'zod';
import { Id, IsoDate } from './common';
import { errorText } from './errors';

export const ANNOTATION_CLASS_NAME_MAX = 100;
export { ANNOTATION_CLASSES_MAX } from './constants';

export const AnnotationClassText = {
  tab: 'Annotation classes',
  intro:
    'Classes your organization classifies annotations with. Teams also use the classes of the organizations above them.',
  add: 'Add class',
  name: 'Name',
  color: 'Colour',
  inherited: 'From a parent organization',
  none: 'No annotation classes yet.',
  badColor: 'must be a colour like #c83232',
  nameRequired: 'Enter a name',
  duplicate: (name: string) => errorText('DUPLICATE_CLASS', { name }),
  tooMany: errorText('TOO_MANY_CLASSES'),
  /** The panel's filter: every annotation, or those without a class. */
  all: 'All',
  unclassified: 'Unclassified',
  classLabel: 'Class',
  noClass: 'No class',
} as const;

const Hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, AnnotationClassText.badColor);
const Name = z.string().trim().min(1, AnnotationClassText.nameRequired).max(ANNOTATION_CLASS_NAME_MAX);

export const AnnotationClass = z.object({
  id: Id,
  organizationId: Id,
  name: z.string(),
  color: z.string(),
  creatorUserId: Id.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type AnnotationClass = z.infer<typeof AnnotationClass>;

export const AnnotationClassCreateBody = z.strictObject({
  annotationClass: z.strictObject({ name: Name, color: Hex, organizationId: Id.optional() }),
});
export type AnnotationClassCreateBody = z.input<typeof AnnotationClassCreateBody>;

export const AnnotationClassPatchBody = z.strictObject({
  annotationClass: z.strictObject({ name: Name.optional(), color: Hex.optional() }),
});
export type AnnotationClassPatchBody = z.input<typeof AnnotationClassPatchBody>;

/** GET /v2/annotation-classes?organizationId=: that organization's classes and its ancestors' (default: the caller's). */
export const AnnotationClassListQuery = z.object({ organizationId: Id.optional() });

export const AnnotationClassResult = z.object({ result: AnnotationClass });

/** '#c83232' → [200, 50, 50] */
export function hexToRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** [200, 50, 50] → '#c83232' */
export const rgbToHex = (rgb: readonly number[]): string =>
  `#${rgb
    .slice(0, 3)
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The content with its class set (QuPath's `{name, color: [r, g, b]}`) or removed (null). Only a
 * Feature holds one; any other content is returned as it is.
 */
export function withClassification(content: unknown, cls: { name: string; color: string } | null): unknown {
  if (!isRecord(content) || content.type !== 'Feature') return content;
  const { classification: _old, ...props } = isRecord(content.properties) ? content.properties : {};
  return {
    ...content,
    properties: cls ? { ...props, classification: { name: cls.name, color: hexToRgb(cls.color) } } : props,
  };
}

/** The list's class of that name (case-insensitive), if any. */
export const classNamed = (classes: readonly AnnotationClass[] | undefined, name: string | undefined) =>
  name === undefined ? undefined : classes?.find((c) => c.name.toLowerCase() === name.toLowerCase());
