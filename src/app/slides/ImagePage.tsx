// /image/{imageId}: one image on its own, in the viewer's canvas, with a link to its slide.
import { Box, Text } from '@mantine/core';
import { ImageCanvas, isViewable } from '../viewer/ViewerPage';
import { AppLink } from '../lib/AppLink';
import { Misc } from '../../api/messages';
import { DataView, PageFrame } from '../shell/data-view';
import { imageQuery } from './queries';

export function ImagePage({ imageId }: { imageId: string }) {
  return (
    <DataView query={imageQuery(imageId)}>
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
