// The printable QC report (§2.2, §2.10): /reports/quality-check/{review_group_id} for one review group,
// named by its study and date, and /reports/quality-check-image-ids/{base64 of comma-joined ids} for a
// list of images (all the slides of a study). Each result in the QC reading of §4.4 (Pending Review,
// Passed, Failed, Flagged) with its image, slide, reviewer, reason and date; the totals and QC
// percentage. A group's report lists and counts its reviews, as its card does; a list of images counts
// each image once by its latest QC review (qcTally), as the study page does, Not Reviewed when none.
import { useQuery } from '@tanstack/react-query';
import type { Review } from '../../api/entities';
import type { ReviewStatus } from '../../api/enums';
import { Misc, ReportText, StudyText, extractMessage } from '../../api/messages';
import { QC_NOT_REVIEWED, qcCountRows, qcPercentage, reviewStatusText } from '../../api/reviews';
import { formatDate } from '../lib/format';
import { qcReportQuery } from './queries';
import { DataTable, Facts, ReportLayout, Section } from './ReportLayout';
import { Thumb } from './SlideReport';

const STATUS_STYLE: Record<ReviewStatus, string> = {
  pending: '#495057',
  accepted: '#2b8a3e',
  rejected: '#c92a2a',
  flagged: '#d9480f',
  completed: '#1864ab',
};

export function QcReport({ reviewGroupId, imageIds }: { reviewGroupId?: string; imageIds?: string[] }) {
  const source = reviewGroupId ? { groupId: reviewGroupId } : { imageIds: imageIds ?? [] };
  const q = useQuery(qcReportQuery(source));
  const data = q.data;
  const noImages = q.isSuccess && data && data.images.length === 0 && data.missing.length === 0;
  const error = q.isError ? extractMessage(q.error) : noImages ? StudyText.noImages : undefined;
  const name = (id: string | null) => {
    const u = id ? data?.users.find((x) => x.id === id) : undefined;
    return u ? u.name || u.email : Misc.unavailableUser;
  };
  const counts = data?.counts;
  return (
    <ReportLayout
      title={ReportText.qcReport}
      subtitle={
        data
          ? (data.groupName ?? `${data.images.length} ${data.images.length === 1 ? 'image' : 'images'}`)
          : undefined
      }
      ready={q.isSuccess}
      error={error}
    >
      {data && counts && (
        <>
          <Section title="Summary">
            <Facts
              rows={[
                ...(data.groupName ? [['Review group', data.groupName] as [string, string]] : []),
                ['Images', data.images.length],
                ...qcCountRows(counts).map((r): [string, number] => [r.label, r.value]),
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
                    {r ? reviewStatusText(r.status, 'qc') : QC_NOT_REVIEWED}
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
