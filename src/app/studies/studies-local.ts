// Studies from the local store: one page of the list filtered by the §2.7 filter state (§9: 25 per
// page, newest change first unless sorted Oldest), with each study's assay count (distinct assays of
// its slides' images); and the local copy a new study shows until the server's arrives (§4.5: the
// creator is its first assignee, their organization its assignee organization).
import type { Me } from '../../api/auth';
import type { Image, ScanGroup, Study } from '../../api/entities';
import type { LocalDb } from '../../local/db';
import { readPage, readRows, readRowsWhere } from '../../local/read';
import type { Local } from '../../local/restore';
import { dateRangeStart, parseFilters, type FilterState } from '../filters/filter-state';

export const STUDIES_PER_PAGE = 25;

export interface StudyPage {
  rows: Local<Study>[];
  count: number;
  /** Study id → how many distinct assays its slides' images carry. */
  assays: Record<string, number>;
}

const NO_FILTERS = parseFilters({});

export async function readStudyPage(
  db: LocalDb,
  page: number,
  filters: FilterState = NO_FILTERS,
  perPage = STUDIES_PER_PAGE,
): Promise<StudyPage> {
  const f = filters;
  let organSlides: Set<string> | undefined;
  if (f.organIds.length) {
    const organs = new Set(f.organIds);
    const slides = await readRows<ScanGroup>(db, 'scan-groups', {
      where: (r) => organs.has(String(r.organId)),
    });
    organSlides = new Set(slides.map((s) => s.id));
  }
  const text = f.textSearch.trim().toLowerCase();
  const since = dateRangeStart(f.dateRange);
  const orgs = f.organizationIds.length ? new Set(f.organizationIds) : undefined;
  const users = f.userIds.length ? new Set(f.userIds) : undefined;
  // Each filter in use keeps the rows it matches; with none (the default view) there is no `where`,
  // so readPage reads just the page along the updatedAt index instead of every stored study.
  const keeps: Array<(s: Study) => boolean> = [];
  if (text) keeps.push((s) => !!s.name?.toLowerCase().includes(text));
  if (orgs) keeps.push((s) => orgs.has(s.organizationId));
  if (users) keeps.push((s) => users.has(s.creatorUserId ?? ''));
  if (f.tags.length) keeps.push((s) => f.tags.some((t) => s.tags?.includes(t)));
  if (f.scanGroupIds.length) keeps.push((s) => f.scanGroupIds.some((id) => s.scanGroupIds?.includes(id)));
  if (organSlides) keeps.push((s) => !!s.scanGroupIds?.some((id) => organSlides.has(id)));
  if (since !== undefined) keeps.push((s) => !(Date.parse(s.createdAt) < since));
  const { rows, count } = await readPage<Study>(db, 'studies', {
    offset: (page - 1) * perPage,
    limit: perPage,
    orderBy: 'updatedAt',
    reverse: f.sortBy !== 'oldest',
    where: keeps.length
      ? (raw) => {
          const s = raw as unknown as Study;
          return keeps.every((keep) => keep(s));
        }
      : undefined,
  });
  return { rows, count, assays: await assayCounts(db, rows) };
}

/** The studies list's local query (its key and read) for a filter state and page: one description for
 * the page (StudiesPage) and for its route's loader, which reads page 1 ahead of the first render. */
export const studyListQuery = (filters: FilterState, page: number) =>
  [['page', page, JSON.stringify(filters)], (db: LocalDb) => readStudyPage(db, page, filters)] as const;

/** The images of these studies' slides, along the images' scanGroupId index. */
export async function studyImages(db: LocalDb, studies: readonly Study[]): Promise<Local<Image>[]> {
  const slideIds = new Set(studies.flatMap((s) => s.scanGroupIds));
  return slideIds.size ? readRowsWhere<Image>(db, 'images', 'scanGroupId', [...slideIds]) : [];
}

/** Distinct assays (predictors) among the images of each study's slides. */
export async function assayCounts(db: LocalDb, studies: readonly Study[]): Promise<Record<string, number>> {
  return countAssays(studies, await studyImages(db, studies));
}

/** assayCounts over images already read (studyImages). */
export function countAssays(studies: readonly Study[], images: readonly Image[]): Record<string, number> {
  const bySlide = new Map<string, Set<string>>();
  for (const img of images)
    if (img.predictorId && img.scanGroupId) {
      const set = bySlide.get(img.scanGroupId) ?? new Set<string>();
      set.add(img.predictorId);
      bySlide.set(img.scanGroupId, set);
    }
  const out: Record<string, number> = {};
  for (const s of studies) {
    const assays = new Set<string>();
    for (const id of s.scanGroupIds) for (const a of bySlide.get(id) ?? []) assays.add(a);
    out[s.id] = assays.size;
  }
  return out;
}

/** The fields of a new study the server fills in, as the local copy shows them meanwhile. */
export function newStudyPreview(me: Me): Omit<Study, 'id' | 'name'> {
  const now = new Date().toISOString();
  return {
    tags: [],
    scanGroupIds: [],
    organizationId: me.organization.id,
    status: 'created',
    creatorUserId: me.user.id,
    assigneeUserIds: [me.user.id],
    assigneeOrgIds: [me.organization.id],
    inheritedAssignees: [],
    createdAt: now,
    updatedAt: now,
    viewerOptions: null,
  };
}
