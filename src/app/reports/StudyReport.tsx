// /reports/study-report/{studyId}?numberOfAssays={count} (§2.2, §2.10): the printable Study Report —
// the study, its slides with their images' processing state, and the QC state of its images.
import { useQuery } from '@tanstack/react-query';
import type { Image, Review, ScanGroup, Study } from '../../api/entities';
import { Misc, ReportText, StudyText, extractMessage } from '../../api/messages';
import { imageProcessingText, qcPercentage, reviewStatusText } from '../../api/reviews';
import { formatDate, formatShortDate } from '../lib/format';
import { countReviews } from '../reviews/reviews-local';
import { loadImagesOfSlides, loadNames, loadQcReviewsOfImages, loadSlides, loadStudy } from './report-data';
import { DataTable, Facts, ReportLayout, Section } from './ReportLayout';

interface StudyReportData {
  study: Study;
  slides: ScanGroup[];
  images: Image[];
  qc: Review[];
  organs: Map<string, string>;
  creator?: string;
}

async function load(studyId: string): Promise<StudyReportData | undefined> {
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

export function StudyReport({ studyId, numberOfAssays }: { studyId: string; numberOfAssays?: number }) {
  const q = useQuery({ queryKey: ['report', 'study', studyId], queryFn: () => load(studyId), retry: false });
  const data = q.data;
  const error = q.isError ? extractMessage(q.error) : q.isSuccess && !data ? Misc.resultsNotFound : undefined;
  const counts = data ? countReviews(data.qc) : undefined;
  return (
    <ReportLayout
      title={ReportText.studyReport}
      subtitle={data?.study.name}
      ready={q.isSuccess}
      error={error}
    >
      {data && counts && (
        <>
          <Section title="Study">
            <Facts
              rows={[
                ['Name', data.study.name],
                ['Created by', data.creator ?? Misc.unavailableUser],
                ['Created', formatDate(data.study.createdAt)],
                ['Last updated', formatShortDate(data.study.updatedAt)],
                ['Slides', data.study.scanGroupIds.length],
                ['Images', data.images.length],
                ['Assays', numberOfAssays ?? '—'],
                ['Tags', data.study.tags.join(', ') || '—'],
                ['Members', data.study.assigneeUserIds.length],
              ]}
            />
          </Section>
          <Section title="Slides">
            {data.slides.length === 0 ? (
              <p>{StudyText.noImages}</p>
            ) : (
              <DataTable
                head={['Slide ID', 'Animal', 'Organ', 'Images', 'Processing', 'Storage', 'Created']}
                rows={data.slides.map((s) => {
                  const imgs = data.images.filter((i) => i.scanGroupId === s.id);
                  const states = [...new Set(imgs.map((i) => imageProcessingText(i.status)))];
                  return [
                    s.simpleId,
                    s.animal || '—',
                    data.organs.get(s.organId ?? '') ?? '—',
                    imgs.length,
                    states.join(', ') || '—',
                    s.storageStatus,
                    formatDate(s.createdAt),
                  ];
                })}
              />
            )}
          </Section>
          <Section title="Quality check">
            <Facts
              rows={[
                ['Images checked', `${counts.total - counts.pending} of ${data.images.length}`],
                [reviewStatusText('accepted', 'qc'), counts.accepted],
                [reviewStatusText('rejected', 'qc'), counts.rejected],
                [reviewStatusText('flagged', 'qc'), counts.flagged],
                [reviewStatusText('pending', 'qc'), counts.pending],
                ['QC issues', `${qcPercentage(counts)}%`],
              ]}
            />
          </Section>
        </>
      )}
    </ReportLayout>
  );
}
