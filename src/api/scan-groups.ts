// Requests and responses of /v2/scan-groups (slides, slide labels; spec §7), the simpleId alphabet,
// and the archive/reactivate vocabulary of §4.2.
import { z } from 'zod';
import { Id } from './common';
import { editBase, OverwrittenList } from './edit-base';
import { ScanGroupStatuses, StorageStatuses } from './enums';
import { ScanGroup } from './entities';
import { isoDateParam, pageParams, repeated } from './lists';
import { NOTES_MAX, TAGS_PER_STUDY_MAX } from './constants';
import { errorText } from './errors';
import { IdSet, SET_MAX, Tag, echoedFields } from './studies';

/**
 * simpleId: 8 characters of Crockford's base32 (no I, L, O, U), so it is typed without doubt and
 * survives a printed label read back by eye or barcode. 32^8 ≈ 10^12 ids.
 */
export const SIMPLE_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SIMPLE_ID_LENGTH = 8;

/** What a person typed or a barcode gave → the stored form: upper case, no separators, O→0, I/L→1. */
export function normalizeSimpleId(input: string): string {
  return input.trim().toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export const isSimpleId = (value: string): boolean =>
  value.length === SIMPLE_ID_LENGTH && [...value].every((c) => SIMPLE_ID_ALPHABET.includes(c));

/** Errors of the catalogue (./errors.ts) that slide schemas and routes name. */
export const ScanGroupText = {
  archived: errorText('SLIDE_ARCHIVED'),
  tooManyTags: errorText('SLIDE_TOO_MANY_TAGS'),
} as const;

const scanGroupFields = {
  name: z.string().trim().max(100).nullable(),
  notes: z.string().max(NOTES_MAX),
  LISInfo: z
    .record(z.string().max(100), z.unknown())
    .refine((v) => JSON.stringify(v).length <= 20_000, { message: 'LISInfo is too large' })
    .nullable(),
  organId: Id.nullable(),
  animal: z.string().trim().max(100).nullable(),
  tags: z.array(Tag).max(TAGS_PER_STUDY_MAX, ScanGroupText.tooManyTags),
  assigneeUserIds: IdSet,
  assigneeOrgIds: IdSet,
  /** A date at or before now archives the slide; a later one schedules it; null reactivates (§4.2). */
  archiveAt: z.iso.datetime({ offset: true, message: 'must be an ISO date' }).nullable(),
};

export const CreateScanGroupBody = z.strictObject({
  scanGroup: z
    .strictObject({
      ...scanGroupFields,
      /** Only ever the caller ('You can only create scan groups for yourself'); filled in when absent. */
      creatorUserId: Id,
      organizationId: Id,
    })
    .partial(),
});
export type CreateScanGroupBody = z.input<typeof CreateScanGroupBody>;

const ScanGroupSetOps = z.strictObject({
  tags: z.array(z.string().trim().max(200)).max(SET_MAX).optional(),
  assigneeUserIds: IdSet.optional(),
  assigneeOrgIds: IdSet.optional(),
});

/** A slide's fields whose overwriting is reported to the writer (src/api/edit-base.ts). */
export const SCAN_GROUP_GUARDED_FIELDS = ['name', 'notes'] as const;

export const UpdateScanGroupBody = z
  .strictObject({
    scanGroup: z
      .strictObject({
        ...scanGroupFields,
        ...echoedFields,
        simpleId: z.string().max(64),
        storageStatus: z.string().max(40),
        storageHistory: z.array(z.unknown()).max(1000),
        lastUploadDate: z.string().max(40).nullable(),
      })
      .partial()
      .optional(),
    add: ScanGroupSetOps.extend({ tags: z.array(Tag).max(SET_MAX).optional() }).optional(),
    remove: ScanGroupSetOps.optional(),
    base: editBase(SCAN_GROUP_GUARDED_FIELDS).optional(),
  })
  .refine((b) => b.scanGroup || b.add || b.remove, { message: 'Send scanGroup, add or remove' });
export type UpdateScanGroupBody = z.input<typeof UpdateScanGroupBody>;

export const ScanGroupOrderBy = z.enum(['createdAt', 'updatedAt', 'lastUploadDate', 'name', 'simpleId']);

/** §7 "Filters used" for scan groups; arrays are repeated parameters. */
export const ScanGroupListQuery = z.object({
  ...pageParams(100, 10),
  orderBy: ScanGroupOrderBy.default('createdAt'),
  id: repeated(Id),
  creatorUserId: repeated(Id),
  organId: repeated(Id),
  animalName: repeated(z.string().max(100)),
  simpleId: repeated(z.string().max(64)),
  /** Slides whose simpleId starts with this, as typed (normalized like simpleId): the label repair's search. */
  simpleIdPrefix: z.string().trim().max(64).optional(),
  organizationId: repeated(Id),
  storageStatus: repeated(z.enum(StorageStatuses)),
  status: repeated(z.enum(ScanGroupStatuses)),
  tag: repeated(z.string().max(200)),
  /** Free text over simpleId, name and notes (the filter bar's search box). */
  search: z.string().trim().max(100).optional(),
  createdAtStart: isoDateParam.optional(),
  createdAtEnd: isoDateParam.optional(),
  archiveAtStart: isoDateParam.optional(),
  archiveAtEnd: isoDateParam.optional(),
});
export type ScanGroupListQuery = z.input<typeof ScanGroupListQuery>;

export const ScanGroupResult = z.object({ result: ScanGroup });
/** A PATCH's answer: the stored slide, and the newer values it replaced, if any. */
export const UpdateScanGroupResult = ScanGroupResult.extend({ overwritten: OverwrittenList.optional() });
