// /sviewer/{studyId}/{n} (§2.9): the study's slides in the viewer one after another, with 'Slide X of Y'.
import { Progress, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { ViewerPage } from '../viewer/ViewerPage';
import { Misc } from '../../api/messages';
import { DataView } from '../shell/data-view';
import { studyQuery } from './queries';

export function StudyViewerPage({ studyId, number }: { studyId: string; number: number }) {
  const navigate = useNavigate();
  return (
    <DataView query={studyQuery(studyId)}>
      {(study) => {
        const total = study.scanGroupIds.length;
        const n = Math.min(Math.max(1, number), Math.max(1, total));
        const id = study.scanGroupIds[n - 1];
        // The study's slides one after another, as the reviewer steps through a group's images.
        const stepper = {
          at: n - 1,
          count: total,
          go: (i: number) =>
            void navigate({
              to: '/sviewer/$studyId/$scangroupNumber',
              params: { studyId, scangroupNumber: String(i + 1) },
            }),
        };
        // §2.9: in viewer mode the study shows a progress bar 'Slide X of Y'.
        const header = (
          <Stack gap={2} w={200}>
            <Text size="xs" c="dimmed">
              {study.name} · Slide {n} of {total}
            </Text>
            <Progress value={total ? (100 / total) * n : 0} size="sm" />
          </Stack>
        );
        return id ? (
          <ViewerPage key={id} scanGroupId={id} header={header} studyId={studyId} stepper={stepper} />
        ) : (
          <Text>{Misc.imageNotAvailable}</Text>
        );
      }}
    </DataView>
  );
}
