// Simple pages for slides and images: the slide and study viewers' data and one image. The slide list
// and the slide-selection popup are src/app/slides and src/app/image-selection.
import { Box, Progress, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { ImageCanvas, ViewerPage, isViewable } from '../viewer/ViewerPage';
import { AppLink } from '../lib/AppLink';
import type { Image, Study } from '../../api/entities';
import { Misc } from '../../api/messages';
import { DataView, PageFrame } from './data-view';

export function ScanGroupViewerPage({
  scanGroupId,
  imageIndex,
}: {
  scanGroupId: string;
  imageIndex?: number;
}) {
  return <ViewerPage scanGroupId={scanGroupId} imageIndex={imageIndex} />;
}

export function StudyViewerPage({ studyId, number }: { studyId: string; number: number }) {
  const navigate = useNavigate();
  return (
    <DataView<Study> path={`/studies/${studyId}`}>
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

export function ImagePage({ imageId }: { imageId: string }) {
  return (
    <DataView<Image> path={`/images/${imageId}`}>
      {(img) => (
        <PageFrame
          title={img.name}
          subtitle={
            img.scanGroupId ? (
              <AppLink href={`/sgviewer/${img.scanGroupId}`}>Open its slide</AppLink>
            ) : undefined
          }
        >
          <Box
            h="calc(100vh - 220px)"
            mih={420}
            style={{ borderRadius: 8, overflow: 'hidden' }}
            bd="1px solid var(--mantine-color-gray-3)"
          >
            {isViewable(img) ? (
              <ImageCanvas image={img} />
            ) : (
              <Text c="dimmed" p="md">
                {Misc.imageNotAvailable}
              </Text>
            )}
          </Box>
        </PageFrame>
      )}
    </DataView>
  );
}
