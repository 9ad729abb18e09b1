// Reviews from the local store: the groups the user takes part in with counts computed from
// the reviews this device holds (so a decision made offline shows in the counts at once, §4.4), one
// group's images in order with their reviews, and the slides a review can be requested for.
import type { Image, Review, ReviewGroup, ScanGroup, Study } from '../../api/entities';
import type { ReviewStatus } from '../../api/enums';
import { reviewGroupProgress, type ReviewGroupCounts, type ReviewGroupProgress } from '../../api/reviews';
import type { Organization, User } from '../../api/users';
import type { LocalDb } from '../../local/db';
import { readRow, readRows } from '../../local/read';
import type { Local } from '../../local/restore';
import { groupName, readNamingFacts, studyOf } from './group-name';

export interface GroupSummary extends ReviewGroupCounts {
  id: string;
  /** Its study and date (group-name.ts). */
  name: string;
  studyId: string | null;
  /** 'qc' when the group holds QC reviews, else 'review'. */
  kind: 'qc' | 'review';
  createdAt: string;
  updatedAt: string;
  creatorUserId: string | null;
  reviewerIds: string[];
  imageIds: string[];
  progress: ReviewGroupProgress;
  /** Some of its reviews have changes not yet on the server. */
  pendingChanges: boolean;
}

const emptyCounts = (): ReviewGroupCounts => ({
  total: 0,
  completed: 0,
  accepted: 0,
  rejected: 0,
  flagged: 0,
  pending: 0,
});

/** Counts by status of some reviews (comments are notes, not work: they do not count). */
export function countReviews(reviews: readonly Review[]): ReviewGroupCounts {
  const counts = emptyCounts();
  for (const r of reviews) {
    if (r.type === 'comment') continue;
    counts.total++;
    counts[r.status as ReviewStatus]++;
  }
  return counts;
}

/** Every group this device knows of, newest change first, with counts from its local reviews. */
export async function readGroups(db: LocalDb): Promise<GroupSummary[]> {
  const [reviews, groups] = await Promise.all([
    readRows<Review>(db, 'reviews'),
    readRows<ReviewGroup>(db, 'review-groups'),
  ]);
  const byGroup = new Map<string, Local<Review>[]>();
  for (const r of reviews) {
    const list = byGroup.get(r.reviewGroupUUID) ?? [];
    list.push(r);
    byGroup.set(r.reviewGroupUUID, list);
  }
  const server = new Map(groups.map((g) => [g.id, g]));
  const works = [...byGroup]
    .map(([id, list]) => [id, list.filter((r) => r.type !== 'comment')] as const)
    .filter(([, work]) => work.length > 0);
  const naming = await readNamingFacts(
    db,
    works.map(([, work]) => studyOf(work)).filter((x): x is string => !!x),
    works.flatMap(([, work]) => (studyOf(work) ? [] : work.map((r) => r.imageId))),
  );
  const out: GroupSummary[] = [];
  for (const [id, work] of works) {
    const counts = countReviews(work);
    const times = work.map((r) => r.updatedAt).sort();
    const g = server.get(id);
    const studyId = studyOf(work);
    const createdAt = g?.createdAt ?? work.map((r) => r.createdAt).sort()[0];
    out.push({
      id,
      name: groupName({
        studyName: studyId ? naming.studies.get(studyId) : undefined,
        slideIds: work.flatMap((r) => naming.slideOfImage.get(r.imageId) ?? []),
        createdAt,
      }),
      studyId,
      ...counts,
      kind: work.some((r) => r.type === 'qc') ? 'qc' : 'review',
      createdAt,
      updatedAt: times[times.length - 1],
      creatorUserId: work[0].creatorUserId,
      reviewerIds: [...new Set(work.map((r) => r.reviewerId).filter((x): x is string => !!x))],
      imageIds: [...new Set(work.map((r) => r.imageId))],
      progress: reviewGroupProgress(counts),
      pendingChanges: work.some((r) => (r.$pending ?? 0) > 0),
    });
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

export interface GroupImage {
  image: Local<Image> | undefined;
  imageId: string;
  slide: Local<ScanGroup> | undefined;
  /** The non-comment reviews of this image in the group. */
  reviews: Local<Review>[];
  /** Comment reviews on this image in the group, oldest first. */
  comments: Local<Review>[];
}

export interface GroupDetail {
  id: string;
  /** Its study and date (group-name.ts). */
  name: string;
  images: GroupImage[];
  counts: ReviewGroupCounts;
  kind: 'qc' | 'review';
}

/** One group: its images in a stable order (slide simple id, then image creation), with reviews. */
export async function readGroup(db: LocalDb, groupId: string): Promise<GroupDetail> {
  const reviews = await readRows<Review>(db, 'reviews', { where: (r) => r.reviewGroupUUID === groupId });
  const imageIds = [...new Set(reviews.filter((r) => r.type !== 'comment').map((r) => r.imageId))];
  const wanted = new Set(imageIds);
  const images = await readRows<Image>(db, 'images', { where: (r) => wanted.has(String(r.id)) });
  const imageById = new Map(images.map((i) => [i.id, i]));
  const slideIds = new Set(images.map((i) => i.scanGroupId).filter((x): x is string => !!x));
  const slides = await readRows<ScanGroup>(db, 'scan-groups', { where: (r) => slideIds.has(String(r.id)) });
  const slideById = new Map(slides.map((s) => [s.id, s]));
  const rows: GroupImage[] = imageIds.map((imageId) => {
    const image = imageById.get(imageId);
    const ofImage = reviews.filter((r) => r.imageId === imageId);
    return {
      imageId,
      image,
      slide: image?.scanGroupId ? slideById.get(image.scanGroupId) : undefined,
      reviews: ofImage.filter((r) => r.type !== 'comment'),
      comments: ofImage
        .filter((r) => r.type === 'comment')
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    };
  });
  const key = (g: GroupImage) => `${g.slide?.simpleId ?? '~'} ${g.image?.createdAt ?? ''} ${g.imageId}`;
  rows.sort((a, b) => key(a).localeCompare(key(b)));
  const work = reviews.filter((r) => r.type !== 'comment');
  const studyId = studyOf(work);
  const study = studyId ? await readRow<Study>(db, 'studies', studyId) : undefined;
  return {
    id: groupId,
    name: groupName({
      studyName: study?.name,
      slideIds: rows.flatMap((r) => r.slide?.simpleId ?? []),
      createdAt: work.map((r) => r.createdAt).sort()[0] ?? new Date().toISOString(),
    }),
    images: rows,
    counts: countReviews(work),
    kind: work.some((r) => r.type === 'qc') ? 'qc' : 'review',
  };
}

export interface RequestSource {
  studies: Local<Study>[];
  slides: Local<ScanGroup>[];
  /** Slide id → its images. */
  images: Record<string, Local<Image>[]>;
  users: Local<User>[];
  /** The users' organizations, for what each of them may do. */
  organizations: Map<string, Local<Organization>>;
}

/** What the Request Review dialog picks from: studies, slides with their images, and colleagues. */
export async function readRequestSource(db: LocalDb): Promise<RequestSource> {
  const [studies, slides, images, users, organizations] = await Promise.all([
    readRows<Study>(db, 'studies', { orderBy: 'updatedAt', reverse: true }),
    readRows<ScanGroup>(db, 'scan-groups'),
    readRows<Image>(db, 'images'),
    readRows<User>(db, 'users'),
    readRows<Organization>(db, 'organizations'),
  ]);
  const bySlide: Record<string, Local<Image>[]> = {};
  for (const img of images) {
    if (!img.scanGroupId) continue;
    (bySlide[img.scanGroupId] ??= []).push(img);
  }
  return {
    studies,
    slides: slides.sort((a, b) => a.simpleId.localeCompare(b.simpleId)),
    images: bySlide,
    users: users.filter((u) => u.status === 'active').sort((a, b) => a.name.localeCompare(b.name)),
    organizations: new Map(organizations.map((o) => [o.id, o])),
  };
}

/** A user's display name from the local store, or the spec's 'Unavailable User'. */
export function nameOf(users: readonly User[], id: string | null | undefined, fallback: string): string {
  const u = id ? users.find((x) => x.id === id) : undefined;
  return u ? u.name || u.email : fallback;
}
