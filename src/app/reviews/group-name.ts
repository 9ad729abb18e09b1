// What a review group is called wherever it shows (its card, the reviewer page, the QC report): the
// study it was requested from and the day it was requested, never its id. A group requested without a
// study (or whose study this user cannot read) is called by its slides' ids instead.
import type { Image, ScanGroup, Study } from '../../api/entities';
import { ReviewQcText } from '../../api/messages';
import type { LocalDb } from '../../local/db';
import { readRows, readRowsWhere } from '../../local/read';
import { formatDate } from '../lib/format';

/** Slide ids named before '+N'. */
const SLIDES_NAMED = 3;

export interface GroupNaming {
  studyName?: string;
  /** The simple ids of the group's slides. */
  slideIds: readonly string[];
  /** When the group was requested. */
  createdAt: string;
}

export function groupName(n: GroupNaming): string {
  const slides = [...new Set(n.slideIds)].sort();
  const more = slides.length > SLIDES_NAMED ? ` +${slides.length - SLIDES_NAMED}` : '';
  const what =
    n.studyName ??
    (slides.length ? `Slides ${slides.slice(0, SLIDES_NAMED).join(', ')}${more}` : ReviewQcText.noStudy);
  return `${what} · ${formatDate(n.createdAt)}`;
}

/** The first study a group's reviews name (they all name the same one, the server sees to it). */
export const studyOf = (reviews: readonly { studyId?: string | null }[]): string | null =>
  reviews.find((r) => r.studyId)?.studyId ?? null;

/** Study names by id and slide simple ids by image id, from this device's store. */
export async function readNamingFacts(
  db: LocalDb,
  studyIds: readonly string[],
  imageIds: readonly string[],
): Promise<{ studies: Map<string, string>; slideOfImage: Map<string, string> }> {
  const wantedStudies = new Set(studyIds);
  const [studies, images] = await Promise.all([
    wantedStudies.size
      ? readRows<Study>(db, 'studies', { where: (r) => wantedStudies.has(String(r.id)) })
      : Promise.resolve([]),
    imageIds.length ? readRowsWhere<Image>(db, 'images', 'id', [...new Set(imageIds)]) : Promise.resolve([]),
  ]);
  const slideIds = [...new Set(images.map((i) => i.scanGroupId).filter((x): x is string => !!x))];
  const slides = slideIds.length ? await readRowsWhere<ScanGroup>(db, 'scan-groups', 'id', slideIds) : [];
  const simpleId = new Map(slides.map((s) => [s.id, s.simpleId]));
  const slideOfImage = new Map<string, string>();
  for (const i of images) {
    const sid = i.scanGroupId ? simpleId.get(i.scanGroupId) : undefined;
    if (sid) slideOfImage.set(i.id, sid);
  }
  return { studies: new Map(studies.map((s) => [s.id, s.name])), slideOfImage };
}
