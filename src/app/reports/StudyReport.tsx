// /reports/study-report/{studyId}?numberOfAssays={count} (§2.2, §2.10): the printable Study Report —
// the study, its slides with their images' processing state, and the QC state of its images.
import { useQuery } from '@tanstack/react-query';
import { Misc, ReportText, StudyText, extractMessage } from '../../api/messages';
import { imageProcessingText, qcCountRows, qcPercentage, qcTally } from '../../api/reviews';
import { formatDate, formatShortDate } from '../lib/format';
import { studyReportQuery } from './queries';
import { DataTable, Facts, ReportLayout, Section } from './ReportLayout';

export function StudyReport({ studyId, numberOfAssays }: { studyId: string; numberOfAssays?: number }) {
  const q = useQuery(studyReportQuery(studyId));
  const data = q.data;
  const error = q.isError ? extractMessage(q.error) : q.isSuccess && !data ? Misc.resultsNotFound : undefined;
  const counts = data
    ? qcTally(
        data.images.map((i) => i.id),
        data.qc,
      )
    : undefined;
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
                ['Images', counts.images],
                ...qcCountRows(counts).map((r): [string, number] => [r.label, r.value]),
                ['QC issues', `${qcPercentage(counts)}%`],
              ]}
            />
          </Section>
        </>
      )}
    </ReportLayout>
  );
}
