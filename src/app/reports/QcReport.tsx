// The printable QC report (§2.2, §2.10): /reports/quality-check/{review_group_id} for one review group,
// and /reports/quality-check-image-ids/{base64 of comma-joined ids} for a list of images (all the
// slides of a study). Each image with its thumbnail, slide, result in the QC reading of §4.4
// (Pending Review, Passed, Failed, Flagged), reviewer, reason and date; the totals and QC percentage.
import { useQuery } from '@tanstack/react-query';
import type { Image, Review, ScanGroup } from '../../api/entities';
import type { ReviewStatus } from '../../api/enums';
import { Misc, ReportText, StudyText, extractMessage } from '../../api/messages';
import { qcPercentage, reviewStatusText } from '../../api/reviews';
import type { User } from '../../api/users';
import { formatDate } from '../lib/format';
import { countReviews } from '../reviews/reviews-local';
import { loadGroupReviews, loadImages, loadNames, loadQcReviewsOfImages, loadSlides } from './report-data';
import { DataTable, Facts, ReportLayout, Section } from './ReportLayout';
import { Thumb } from './SlideReport';

interface QcData {
  images: Image[];
  /** Ids of images named by the reviews but not readable here. */
  missing: string[];
  reviews: Review[];
  comments: Review[];
  slides: Map<string, ScanGroup>;
  users: User[];
}

async function load(source: { groupId: string } | { imageIds: string[] }): Promise<QcData> {
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
  return {
    images,
    missing: imageIds.filter((id) => !found.has(id)),
    reviews: reviews.filter((r) => r.type !== 'comment'),
    comments: reviews.filter((r) => r.type === 'comment'),
    slides: bySlide,
    users: names.users,
  };
}

const STATUS_STYLE: Record<ReviewStatus, string> = {
  pending: '#495057',
  accepted: '#2b8a3e',
  rejected: '#c92a2a',
  flagged: '#d9480f',
  completed: '#1864ab',
};

export function QcReport({ reviewGroupId, imageIds }: { reviewGroupId?: string; imageIds?: string[] }) {
  const source = reviewGroupId ? { groupId: reviewGroupId } : { imageIds: imageIds ?? [] };
  const q = useQuery({ queryKey: ['report', 'qc', source], queryFn: () => load(source), retry: false });
  const data = q.data;
  const noImages = q.isSuccess && data && data.images.length === 0 && data.missing.length === 0;
  const error = q.isError ? extractMessage(q.error) : noImages ? StudyText.noImages : undefined;
  const name = (id: string | null) => {
    const u = id ? data?.users.find((x) => x.id === id) : undefined;
    return u ? u.name || u.email : Misc.unavailableUser;
  };
  const counts = data ? countReviews(data.reviews) : undefined;
  return (
    <ReportLayout
      title={ReportText.qcReport}
      subtitle={data ? `${data.images.length} ${data.images.length === 1 ? 'image' : 'images'}` : undefined}
      ready={q.isSuccess}
      error={error}
    >
      {data && counts && (
        <>
          <Section title="Summary">
            <Facts
              rows={[
                ...(reviewGroupId ? [['Review group', reviewGroupId] as [string, string]] : []),
                ['Images', data.images.length],
                [reviewStatusText('accepted', 'qc'), counts.accepted],
                [reviewStatusText('rejected', 'qc'), counts.rejected],
                [reviewStatusText('flagged', 'qc'), counts.flagged],
                [reviewStatusText('pending', 'qc'), counts.pending],
                ['QC issues', `${qcPercentage(counts)}%`],
              ]}
            />
          </Section>
          <Section title="Results by image">
            <DataTable
              head={['Image', 'Slide', 'Name', 'Result', 'Reviewer', 'Reason', 'Date']}
              rows={data.images.flatMap((img) => {
                const of = data.reviews.filter((r) => r.imageId === img.id);
                const slide = data.slides.get(img.scanGroupId ?? '')?.simpleId ?? '—';
                const list: (Review | undefined)[] = of.length ? of : [undefined];
                return list.map((r) => [
                  <Thumb key="t" image={img} size={72} />,
                  slide,
                  <span key="n" style={{ wordBreak: 'break-all' }}>
                    {img.name}
                  </span>,
                  <strong
                    key="s"
                    style={{ color: STATUS_STYLE[r?.status ?? 'pending'] }}
                    data-testid="qc-result"
                  >
                    {reviewStatusText(r?.status ?? 'pending', 'qc')}
                  </strong>,
                  r ? name(r.reviewerId) : '—',
                  r?.comment || '—',
                  r && r.status !== 'pending' ? formatDate(r.updatedAt) : '—',
                ]);
              })}
            />
            {data.missing.length > 0 && (
              <p>
                {data.missing.length} {Misc.imageNotAvailable.toLowerCase()}.
              </p>
            )}
          </Section>
          {data.comments.length > 0 && (
            <Section title="Comments">
              <DataTable
                head={['Image', 'By', 'Date', 'Comment']}
                rows={data.comments.map((c) => [
                  data.images.find((i) => i.id === c.imageId)?.name ?? '—',
                  name(c.creatorUserId),
                  formatDate(c.createdAt),
                  c.comment,
                ])}
              />
            </Section>
          )}
        </>
      )}
    </ReportLayout>
  );
}
