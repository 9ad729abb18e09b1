// The reports' reads (report-data.ts) gathered per report, as query options shared by a report's
// route loader, which starts them, and the report, which prints them. Errors are the report's to show
// (retry: false: a report is a snapshot; it says what went wrong rather than trying again).
import { queryOptions } from '@tanstack/react-query';
import type { Image, Review, ScanGroup, Study } from '../../api/entities';
import { qcTally, type QcTally, type ReviewGroupCounts } from '../../api/reviews';
import type { LayersManifest } from '../../api/tiles';
import type { User } from '../../api/users';
import { groupName, studyOf } from '../reviews/group-name';
import { countReviews } from '../reviews/reviews-local';
import {
  loadGroupReviews,
  loadImages,
  loadImagesOfSlides,
  loadLayers,
  loadNames,
  loadQcReviewsOfImages,
  loadSlide,
  loadSlides,
  loadStudy,
} from './report-data';

/** The Slide Report of one slide (/reports/scangroup-report/{scanGroupId}); undefined when not found. */
export const slideReportQuery = (scanGroupId: string) =>
  queryOptions({
    queryKey: ['report', 'slide', scanGroupId],
    queryFn: () => loadSlideReport(scanGroupId),
    retry: false,
  });

/** The Study Report of one study (/reports/study-report/{studyId}); undefined when not found. */
export const studyReportQuery = (studyId: string) =>
  queryOptions({
    queryKey: ['report', 'study', studyId],
    queryFn: () => loadStudyReport(studyId),
    retry: false,
  });

/** What a QC report covers: one review group, or a list of images (all the slides of a study). */
export type QcSource = { groupId: string } | { imageIds: string[] };

/** The QC report (/reports/quality-check/{groupId}, /reports/quality-check-image-ids/{ids}). */
export const qcReportQuery = (source: QcSource) =>
  queryOptions({
    queryKey: ['report', 'qc', source],
    queryFn: () => loadQcReport(source),
    retry: false,
  });

interface SlideReportData {
  slide: ScanGroup;
  images: Image[];
  layers: Record<string, LayersManifest['layers']>;
  organ?: string;
  creator?: string;
}

async function loadSlideReport(scanGroupId: string): Promise<SlideReportData | undefined> {
  const slide = await loadSlide(scanGroupId);
  if (!slide) return undefined;
  const [images, names] = await Promise.all([loadImagesOfSlides([slide.id]), loadNames()]);
  const layers: Record<string, LayersManifest['layers']> = {};
  await Promise.all(images.map(async (img) => (layers[img.id] = await loadLayers(img))));
  const creator = names.users.find((u) => u.id === slide.creatorUserId);
  return {
    slide,
    images,
    layers,
    organ: names.organs.find((o) => o.id === slide.organId)?.name,
    creator: creator ? creator.name || creator.email : undefined,
  };
}

interface StudyReportData {
  study: Study;
  slides: ScanGroup[];
  images: Image[];
  qc: Review[];
  organs: Map<string, string>;
  creator?: string;
}

async function loadStudyReport(studyId: string): Promise<StudyReportData | undefined> {
  const study = await loadStudy(studyId);
  if (!study) return undefined;
  const [slides, images, names] = await Promise.all([
    loadSlides(study.scanGroupIds),
    loadImagesOfSlides(study.scanGroupIds),
    loadNames(),
  ]);
  const qc = await loadQcReviewsOfImages(images.map((i) => i.id));
  const creator = names.users.find((u) => u.id === study.creatorUserId);
  return {
    study,
    slides: slides.sort((a, b) => a.simpleId.localeCompare(b.simpleId)),
    images,
    qc,
    organs: new Map(names.organs.map((o) => [o.id, o.name])),
    creator: creator ? creator.name || creator.email : undefined,
  };
}

interface QcData {
  images: Image[];
  /** Ids of images named by the reviews but not readable here. */
  missing: string[];
  reviews: Review[];
  comments: Review[];
  slides: Map<string, ScanGroup>;
  users: User[];
  /** A group's name (its study and date); none for a list of images. */
  groupName?: string;
  counts: ReviewGroupCounts | QcTally;
}

async function loadQcReport(source: QcSource): Promise<QcData> {
  let reviews: Review[];
  let imageIds: string[];
  if ('groupId' in source) {
    reviews = await loadGroupReviews(source.groupId);
    imageIds = [...new Set(reviews.filter((r) => r.type !== 'comment').map((r) => r.imageId))];
  } else {
    imageIds = source.imageIds;
    reviews = await loadQcReviewsOfImages(imageIds);
  }
  const images = await loadImages(imageIds);
  const slideIds = [...new Set(images.map((i) => i.scanGroupId).filter((x): x is string => !!x))];
  const [slides, names] = await Promise.all([loadSlides(slideIds), loadNames()]);
  const bySlide = new Map(slides.map((s) => [s.id, s]));
  const key = (i: Image) => `${bySlide.get(i.scanGroupId ?? '')?.simpleId ?? '~'} ${i.createdAt}`;
  images.sort((a, b) => key(a).localeCompare(key(b)));
  const found = new Set(images.map((i) => i.id));
  const work = reviews.filter((r) => r.type !== 'comment');
  let name: string | undefined;
  let shown = work;
  let counts: ReviewGroupCounts | QcTally;
  if ('groupId' in source) {
    const studyId = studyOf(work);
    // A study this user cannot read leaves the group named by its slides.
    const study = studyId ? await loadStudy(studyId).catch(() => undefined) : undefined;
    name = groupName({
      studyName: study?.name,
      slideIds: images.flatMap((i) => bySlide.get(i.scanGroupId ?? '')?.simpleId ?? []),
      createdAt: work.map((r) => r.createdAt).sort()[0] ?? new Date().toISOString(),
    });
    counts = countReviews(work);
  } else {
    counts = qcTally(imageIds, work);
    // Each image once, by the result it counts with.
    const latest = new Map<string, Review>();
    for (const r of work) {
      const prev = latest.get(r.imageId);
      if (!prev || prev.updatedAt < r.updatedAt) latest.set(r.imageId, r);
    }
    shown = [...latest.values()];
  }
  return {
    images,
    groupName: name,
    counts,
    missing: imageIds.filter((id) => !found.has(id)),
    reviews: shown,
    comments: reviews.filter((r) => r.type === 'comment'),
    slides: bySlide,
    users: names.users,
  };
}
