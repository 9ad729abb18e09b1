// The slide viewer page (/sgviewer, /sviewer, /image): the multi-image selector (thumbnails, simpleId,
// 'N Images'), the deep-zoom canvas, and the controls — home, 1:1, layers and channels, viewer options;
// in the study viewer, Previous / Next through the study's slides. Below VIEWER_PANELS_MIN_WIDTH (a
// tablet in portrait) the slide gets the width: images in a row above it, controls in a drawer.
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Drawer,
  Flex,
  Group,
  ScrollArea,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type OpenSeadragon from 'openseadragon';
import type { Image, ScanGroup } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { Misc, extractMessage } from '../../api/messages';
import type { LocalDb } from '../../local/db';
import { readRow, readRowsWhere } from '../../local/read';
import { NetworkError } from '../../local/transport';
import { api } from '../lib/api';
import { ImageThumbnail } from '../lib/ImageThumbnail';
import { useObserved } from '../sync/hooks';
import { hexToRgb, type ChannelDisplay } from './adjust';
import { useViewerOptions } from './useViewerOptions';
import { useLayersManifest } from './useLayersManifest';
import { SlideViewer } from './SlideViewer';
import { StepNav, SwipeArea, type Stepper } from './StepNav';
import { useNarrowViewer } from './layout';
import { ViewerControls } from './ViewerControls';
import { AnnotationOverlay } from './annotations/AnnotationOverlay';
import { AnnotationsButton } from './annotations/AnnotationsButton';
import { AlignControl } from './aligned/AlignControl';

/** §4.2: viewable only when the image and its display are completed. */
export const isViewable = (img: Pick<Image, 'status' | 'displayStatus'>) =>
  img.status === 'completed' && img.displayStatus === 'completed';

/** The slide and its images as the local store has them (oldest image first, as the list call). */
async function readLocalSlide(db: LocalDb, scanGroupId: string) {
  const [slide, images] = await Promise.all([
    readRow<ScanGroup>(db, 'scan-groups', scanGroupId),
    readRowsWhere<Image>(db, 'images', 'scanGroupId', scanGroupId),
  ]);
  images.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return { slide, images };
}

/** The button and drawer title of the viewer's controls on narrow windows. */
const VIEWER_CONTROLS = 'Viewer controls';

export function ViewerPage({
  scanGroupId,
  imageIndex = 0,
  header,
  studyId,
  stepper,
}: {
  scanGroupId: string;
  imageIndex?: number;
  header?: React.ReactNode;
  studyId?: string;
  /** Previous / Next through the slides around this one (the study viewer). */
  stepper?: Stepper;
}) {
  // The local store answers first (and offline); the server's answer, once it comes, is fresher.
  const local = useObserved((db) => readLocalSlide(db, scanGroupId), [scanGroupId]);
  const slide = useQuery({
    queryKey: ['v2', `/scan-groups/${scanGroupId}`],
    queryFn: async () => (await api<{ result: ScanGroup }>('GET', `/scan-groups/${scanGroupId}`)).result,
  });
  const list = useQuery({
    queryKey: ['v2', `/images?scanGroupId=${scanGroupId}`],
    queryFn: () =>
      api<ListResult<Image>>('GET', `/images?scanGroupId=${scanGroupId}&limit=100&orderDirection=asc`),
    refetchInterval: 30_000,
  });
  const narrow = useNarrowViewer();
  const [index, setIndex] = useState(imageIndex);
  useEffect(() => setIndex(imageIndex), [imageIndex]);
  const slideData = slide.data ?? local?.slide;
  if ((slide.isError || list.isError) && !local?.slide)
    return <Alert color="red">{extractMessage(slide.error ?? list.error)}</Alert>;
  const imgs = list.data?.result ?? (local?.slide ? local.images : []);
  const current = imgs[Math.min(index, imgs.length - 1)];
  const top = (
    <Group justify="space-between" gap="xs">
      <Group gap="sm">
        <Title order={3}>{slideData ? `Slide ${slideData.simpleId}` : Misc.resultsNotFound}</Title>
        {header}
      </Group>
      <Group gap="xs">
        {stepper && <StepNav stepper={stepper} size="md" />}
        {current && <AnnotationsButton imageId={current.id} />}
        <AlignControl images={imgs} currentImageId={current?.id} />
        <Badge variant="light" tt="none">
          {imgs.length} Images
        </Badge>
      </Group>
    </Group>
  );
  return (
    <Stack gap="sm" h="calc(100vh - 160px)" mih={480}>
      {stepper ? <SwipeArea stepper={stepper}>{top}</SwipeArea> : top}
      <Flex
        direction={narrow ? 'column' : 'row'}
        align="stretch"
        gap="sm"
        wrap="nowrap"
        style={{ flex: 1, minHeight: 0 }}
      >
        <ImageSelector
          images={imgs}
          selected={current?.id}
          onSelect={(i) => setIndex(i)}
          simpleId={slideData?.simpleId}
          strip={narrow}
        />
        <Box
          style={{ flex: 1, minWidth: 0, borderRadius: 8, overflow: 'hidden' }}
          bd="1px solid var(--mantine-color-gray-3)"
        >
          {current && isViewable(current) ? (
            <ImageCanvas image={current} studyId={studyId} />
          ) : (
            <Stack align="center" justify="center" h="100%">
              <Text c="dimmed">{list.isPending ? 'Loading...' : Misc.imageNotAvailable}</Text>
            </Stack>
          )}
        </Box>
      </Flex>
    </Stack>
  );
}

/** The slide's images: a column beside the slide, or a row above it (`strip`, narrow windows). */
function ImageSelector(props: {
  images: Image[];
  selected?: string;
  simpleId?: string;
  onSelect(i: number): void;
  strip?: boolean;
}) {
  const Items = props.strip ? Group : Stack;
  return (
    <Card withBorder p="xs" w={props.strip ? undefined : 150} style={{ flexShrink: 0 }}>
      <ScrollArea h={props.strip ? undefined : '100%'} type={props.strip ? 'auto' : undefined}>
        <Items gap="xs" wrap="nowrap">
          {props.images.map((img, i) => (
            <UnstyledButton
              key={img.id}
              onClick={() => props.onSelect(i)}
              aria-label={`Image ${i + 1}: ${img.name}`}
              aria-pressed={img.id === props.selected}
              style={{
                borderRadius: 6,
                outline: img.id === props.selected ? '2px solid var(--mantine-color-tessera-6)' : undefined,
              }}
              title={isViewable(img) ? img.name : Misc.imageNotAvailable}
            >
              <ImageThumbnail
                imageId={img.id}
                h={props.strip ? 56 : 90}
                w={props.strip ? 96 : undefined}
                fit="contain"
                bg="gray.1"
                radius="sm"
                alt=""
              />
              <Text size="xs" ta="center" truncate maw={props.strip ? 96 : undefined}>
                {props.simpleId ?? img.name}
              </Text>
            </UnstyledButton>
          ))}
        </Items>
      </ScrollArea>
    </Card>
  );
}

export function ImageCanvas({
  image,
  studyId,
  reviewId,
}: {
  image: Image;
  studyId?: string;
  /** Regions drawn here belong to this review (the reviewer's page). */
  reviewId?: string;
}) {
  const manifest = useLayersManifest(image.id);
  const [options, setOptions] = useViewerOptions(studyId);
  const [channels, setChannels] = useState<ChannelDisplay[]>([]);
  const [viewer, setViewer] = useState<OpenSeadragon.Viewer>();
  const narrow = useNarrowViewer();
  const [controlsOpen, setControlsOpen] = useState(false);
  const initial = useMemo(
    () =>
      manifest.data?.layers.map((l) => ({ visible: true, color: hexToRgb(l.color), min: 0, max: 255 })) ?? [],
    [manifest.data],
  );
  useEffect(() => setChannels(initial), [initial]);
  // Offline, an image never opened here has no cached manifest: say so, not the browser's fetch error.
  if (manifest.isError)
    return manifest.error instanceof NetworkError ? (
      <Alert color="gray">{Misc.imageOffline}</Alert>
    ) : (
      <Alert color="red">{extractMessage(manifest.error)}</Alert>
    );
  if (!manifest.data) return <Text c="dimmed">Loading...</Text>;
  const controls = (
    <ViewerControls
      manifest={manifest.data}
      viewer={viewer}
      options={options}
      onOptions={setOptions}
      channels={channels}
      onChannels={setChannels}
      bare={narrow}
    />
  );
  return (
    <Group h="100%" gap={0} wrap="nowrap" align="stretch">
      <Box pos="relative" style={{ flex: 1, minWidth: 0 }}>
        <SlideViewer
          imageId={image.id}
          manifest={manifest.data}
          options={options}
          channels={channels}
          onViewer={setViewer}
        />
        <AnnotationOverlay viewer={viewer} imageId={image.id} reviewId={reviewId} />
        {narrow && (
          <Button
            pos="absolute"
            top={8}
            right={8}
            variant="default"
            style={{ zIndex: 3 }}
            aria-expanded={controlsOpen}
            onClick={() => setControlsOpen(true)}
          >
            {VIEWER_CONTROLS}
          </Button>
        )}
      </Box>
      {narrow ? (
        <Drawer
          opened={controlsOpen}
          onClose={() => setControlsOpen(false)}
          position="right"
          size={300}
          title={VIEWER_CONTROLS}
          overlayProps={{ backgroundOpacity: 0.15 }}
        >
          {controls}
        </Drawer>
      ) : (
        controls
      )}
    </Group>
  );
}
