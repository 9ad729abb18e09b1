// Slides (scan groups) from the local store for the slide lists: filtered by the §2.7 filter state,
// sorted, one page of 10 (§9), with each slide's images and heart reactions, so a card renders from
// one read and works offline. Also the storage state a card shows (§4.2).
import type { Image, Reaction, ScanGroup } from '../../api/entities';
import type { LocalDb } from '../../local/db';
import { readPage, readRows, readRowsWhere } from '../../local/read';
import type { Local } from '../../local/restore';
import {
  ARCHIVING_WINDOW_DAYS,
  dateRangeStart,
  type ArchivalStatus,
  type FilterState,
} from '../filters/filter-state';

export const SLIDES_PER_PAGE = 10;
const DAY_MS = 86_400_000;

/** The storage state a slide shows (§4.2): a pending archive shows Archiving before the server answers. */
export function slideStorage(
  slide: Pick<ScanGroup, 'storageStatus' | 'archiveAt'>,
  now = Date.now(),
): ArchivalStatus {
  switch (slide.storageStatus) {
    case 'archiveReady':
      return 'archiving';
    case 'archived':
      return 'archived';
    case 'restoreReady':
    case 'restoring':
      return 'restoring';
    case 'archiveFailure':
      return 'archiveFailure';
    case 'restoreFailure':
      return 'restoreFailure';
    default: {
      const at = slide.archiveAt ? Date.parse(slide.archiveAt) : NaN;
      return Number.isFinite(at) && at <= now + ARCHIVING_WINDOW_DAYS * DAY_MS ? 'archiving' : 'active';
    }
  }
}

/** Archived (or on the way there or back): no viewer link, most menu actions disabled (§4.2). */
export const isArchived = (slide: Pick<ScanGroup, 'storageStatus' | 'archiveAt'>) =>
  slide.storageStatus !== 'active' || pendingArchive(slide);

/** An archive requested for now (not a scheduled one): the slide is on its way out. */
export const pendingArchive = (slide: Pick<ScanGroup, 'storageStatus' | 'archiveAt'>) =>
  slide.storageStatus === 'active' && !!slide.archiveAt && Date.parse(slide.archiveAt) <= Date.now() + 60_000;

export interface SlidePage {
  rows: Local<ScanGroup>[];
  count: number;
  images: Record<string, Local<Image>[]>;
  reactions: Record<string, Local<Reaction>[]>;
}

export interface SlideQuery {
  filters: FilterState;
  page: number;
  /** Only these slides (a study's), in any order. */
  within?: readonly string[];
  /** Rows to return (a page, or everything up to "load more"). */
  limit?: number;
}

/** The slides list's local query (its key and read) for a filter state and page: one description
 * for the page (SlidesPage) and for its route's loader, which reads page 1 ahead of the first render. */
export const slideListQuery = (filters: FilterState, page: number) =>
  [['slides', JSON.stringify(filters), page], (db: LocalDb) => readSlidePage(db, { filters, page })] as const;

const contains = (hay: string | null | undefined, needle: string) =>
  !!hay && hay.toLowerCase().includes(needle);

export async function readSlidePage(db: LocalDb, q: SlideQuery): Promise<SlidePage> {
  const f = q.filters;
  const within = q.within ? new Set(q.within) : undefined;
  let assaySlides: Set<string> | undefined;
  if (f.assayIds.length) {
    const assays = new Set(f.assayIds);
    const imgs = await readRows<Image>(db, 'images', {
      where: (r) => assays.has(String(r.predictorId)),
    });
    assaySlides = new Set(imgs.map((i) => i.scanGroupId ?? ''));
  }
  const text = f.textSearch.trim().toLowerCase();
  const since = dateRangeStart(f.dateRange);
  const set = (xs: string[]) => (xs.length ? new Set(xs) : undefined);
  const ids = set(f.scanGroupIds);
  const orgs = set(f.organizationIds);
  const users = set(f.userIds);
  const organs = set(f.organIds);
  const animals = set(f.animalIds);
  const tags = f.tags;
  const archival = set(f.scanGroupArchivalStatus);
  const limit = q.limit ?? SLIDES_PER_PAGE;
  // Each filter in use keeps the rows it matches; with none (the default view) there is no `where`,
  // so readPage reads just the page along the createdAt index instead of every stored slide.
  const keeps: Array<(r: ScanGroup) => boolean> = [];
  if (within) keeps.push((r) => within.has(r.id));
  if (ids) keeps.push((r) => ids.has(r.id));
  if (orgs) keeps.push((r) => orgs.has(r.organizationId));
  if (users) keeps.push((r) => users.has(r.creatorUserId ?? ''));
  if (organs) keeps.push((r) => organs.has(r.organId ?? ''));
  if (animals) keeps.push((r) => animals.has(r.animal ?? ''));
  if (tags.length) keeps.push((r) => tags.some((t) => r.tags?.includes(t)));
  if (assaySlides) keeps.push((r) => assaySlides.has(r.id));
  if (since !== undefined) keeps.push((r) => !(Date.parse(r.createdAt) < since));
  if (archival) keeps.push((r) => archival.has(slideStorage(r)));
  if (text)
    keeps.push(
      (r) =>
        contains(r.simpleId, text) ||
        contains(r.name, text) ||
        contains(r.notes, text) ||
        !!r.tags?.some((t) => contains(t, text)),
    );
  const { rows, count } = await readPage<ScanGroup>(db, 'scan-groups', {
    offset: (q.page - 1) * limit,
    limit,
    orderBy: 'createdAt',
    reverse: f.sortBy !== 'oldest',
    where: keeps.length
      ? (raw) => {
          const r = raw as unknown as ScanGroup;
          return keeps.every((keep) => keep(r));
        }
      : undefined,
  });
  const shown = rows.map((r) => r.id);
  const [imgs, hearts] = await Promise.all([
    readRowsWhere<Image>(db, 'images', 'scanGroupId', shown),
    readRowsWhere<Reaction>(db, 'reactions', 'referenceId', shown),
  ]);
  const images: Record<string, Local<Image>[]> = {};
  for (const img of imgs) (images[img.scanGroupId ?? ''] ??= []).push(img);
  for (const list of Object.values(images)) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const reactions: Record<string, Local<Reaction>[]> = {};
  for (const r of hearts) (reactions[r.referenceId] ??= []).push(r);
  return { rows, count, images, reactions };
}
