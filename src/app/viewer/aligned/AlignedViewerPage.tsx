// /aligned/{alignmentId}: the two images of a rigid alignment, seen together. Side by side, each in its
// viewer, with navigation locked through the alignment's matrix (either one leads, the other follows,
// turned and flipped as the alignment says); or as an overlay, the target drawn over the reference at
// the chosen opacity (two stacked viewers kept in step: docs/decisions.md "Aligned viewing"). Under
// the views, each image's annotations can be copied onto the other through the matrix.
import { useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Flex,
  Group,
  SegmentedControl,
  Slider,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type OpenSeadragon from 'openseadragon';
import type { RigidAlignmentOutput } from '../../../api/alignments';
import type { AlignmentRigid, Image } from '../../../api/entities';
import { extractMessage, Misc } from '../../../api/messages';
import type { LayersManifest } from '../../../api/tiles';
import { imageQuery } from '../../slides/queries';
import { DEFAULT_OPTIONS, hexToRgb, type ChannelDisplay } from '../adjust';
import { AnnotationOverlay } from '../annotations/AnnotationOverlay';
import { SlideViewer } from '../SlideViewer';
import { useNarrowViewer } from '../layout';
import { useLayersManifest } from '../useLayersManifest';
import { isViewable } from '../ViewerPage';
import { decomposeAffine, type Affine } from './aligned-transform';
import { alignmentStatusText, outputOf, pairOf } from './alignment-status';
import { useAlignment } from './alignment-queries';
import { CopyAnnotations } from './CopyAnnotations';
import { useLockedViewers } from './useLockedViewers';

export const AlignedText = {
  title: 'Aligned images',
  sideBySide: 'Side by side',
  overlay: 'Overlay',
  mode: 'View',
  lock: 'Lock navigation',
  opacity: 'Target opacity',
  reference: 'Reference',
  target: 'Target',
  notAligned: 'This alignment has no result to show yet.',
} as const;

type Mode = 'side' | 'overlay';

export function AlignedViewerPage({ alignmentId }: { alignmentId: string }) {
  const alignment = useAlignment(alignmentId);
  if (alignment.isPending) return <Text c="dimmed">Loading...</Text>;
  if (alignment.isError) return <Alert color="red">{extractMessage(alignment.error)}</Alert>;
  const a = alignment.data;
  const output = outputOf(a);
  const pair = pairOf(a);
  if (!output || !pair)
    return (
      <Stack gap="sm">
        <Title order={3}>{AlignedText.title}</Title>
        <Text role="status">{alignmentStatusText(a)}</Text>
        {a.status !== 'active' && a.status !== 'processing' && (
          <Text c="dimmed">{AlignedText.notAligned}</Text>
        )}
      </Stack>
    );
  return <AlignedViews alignment={a} output={output} {...pair} />;
}

function AlignedViews({
  alignment,
  output,
  referenceImageId,
  targetImageId,
}: {
  alignment: AlignmentRigid;
  output: RigidAlignmentOutput;
  referenceImageId: string;
  targetImageId: string;
}) {
  const reference = useQuery(imageQuery(referenceImageId));
  const target = useQuery(imageQuery(targetImageId));
  const narrow = useNarrowViewer();
  const [mode, setMode] = useState<Mode>('side');
  const [locked, setLocked] = useState(true);
  const [opacity, setOpacity] = useState(0.5);
  const [referenceViewer, setReferenceViewer] = useState<OpenSeadragon.Viewer>();
  const [targetViewer, setTargetViewer] = useState<OpenSeadragon.Viewer>();
  const matrix = output.matrix as Affine;
  const overlay = mode === 'overlay';
  // Laid over the reference, the target takes no input: the reference leads, always locked.
  const leader = useLockedViewers(referenceViewer, targetViewer, matrix, locked || overlay);
  // The annotation overlay draws on an unturned, unflipped view only: the target's, when the
  // alignment neither turns nor mirrors it (the reference leads unturned).
  const targetUpright = useMemo(() => {
    const d = decomposeAffine(matrix);
    return !d.mirrored && Math.abs(d.rotation) < 0.5;
  }, [matrix]);

  const error = reference.error ?? target.error;
  if (error) return <Alert color="red">{extractMessage(error)}</Alert>;
  if (!reference.data || !target.data) return <Text c="dimmed">Loading...</Text>;
  return (
    <Stack gap="sm" h="calc(100vh - 160px)" mih={480}>
      <Group justify="space-between" gap="xs">
        <Group gap="sm">
          <Title order={3}>{AlignedText.title}</Title>
          <Badge variant="light" tt="none" data-testid="alignment-score">
            {alignmentStatusText(alignment)}
          </Badge>
        </Group>
        <Group gap="md" wrap="wrap">
          <SegmentedControl
            aria-label={AlignedText.mode}
            size="md"
            value={mode}
            onChange={(v) => {
              setMode(v as Mode);
              if (v === 'overlay') leader.current = 'reference';
            }}
            data={[
              { value: 'side', label: AlignedText.sideBySide },
              { value: 'overlay', label: AlignedText.overlay },
            ]}
            styles={{ label: { minHeight: 36, display: 'flex', alignItems: 'center' } }}
          />
          <Switch
            size="lg"
            label={AlignedText.lock}
            checked={locked || overlay}
            disabled={overlay}
            onChange={(e) => setLocked(e.currentTarget.checked)}
            styles={{ label: { minHeight: 44, display: 'flex', alignItems: 'center' } }}
          />
          {overlay && (
            <Group gap="xs" wrap="nowrap" w={220}>
              <Text size="sm" id="aligned-opacity">
                {AlignedText.opacity}
              </Text>
              <Slider
                style={{ flex: 1 }}
                size="lg"
                thumbSize={28}
                min={0}
                max={1}
                step={0.05}
                value={opacity}
                onChange={setOpacity}
                label={(v) => `${Math.round(v * 100)}%`}
                thumbProps={{ 'aria-labelledby': 'aligned-opacity' }}
                styles={{ root: { minHeight: 44, justifyContent: 'center' } }}
              />
            </Group>
          )}
        </Group>
      </Group>
      <Flex
        direction={narrow ? 'column' : 'row'}
        gap="sm"
        pos="relative"
        style={{ flex: 1, minHeight: 0 }}
        data-testid="aligned-views"
      >
        <AlignedPane
          image={reference.data}
          role={AlignedText.reference}
          onViewer={setReferenceViewer}
          viewer={referenceViewer}
          annotations
          bare={overlay}
        />
        <AlignedPane
          image={target.data}
          role={AlignedText.target}
          onViewer={setTargetViewer}
          viewer={targetViewer}
          annotations={targetUpright && !overlay}
          layered
          bare={overlay}
          style={
            overlay
              ? { position: 'absolute', inset: 0, opacity, pointerEvents: 'none', zIndex: 2 }
              : undefined
          }
        />
      </Flex>
      <CopyAnnotations reference={reference.data} target={target.data} matrix={matrix} />
    </Stack>
  );
}

/** One image of the pair: its name and role above its viewer. */
function AlignedPane({
  image,
  role,
  viewer,
  onViewer,
  annotations,
  layered = false,
  bare = false,
  style,
}: {
  image: Image;
  role: string;
  viewer: OpenSeadragon.Viewer | undefined;
  onViewer(viewer: OpenSeadragon.Viewer | undefined): void;
  annotations: boolean;
  layered?: boolean;
  /** No name above the viewer: in the overlay, both viewers must cover the same box. */
  bare?: boolean;
  style?: React.CSSProperties;
}) {
  const manifest = useLayersManifest(image.id);
  const channels = useMemo(() => channelsOf(manifest.data), [manifest.data]);
  const body = !isViewable(image) ? (
    <Text c="dimmed">{Misc.imageNotAvailable}</Text>
  ) : manifest.isError ? (
    <Alert color="gray">{extractMessage(manifest.error)}</Alert>
  ) : !manifest.data ? (
    <Text c="dimmed">Loading...</Text>
  ) : (
    <Box pos="relative" h="100%">
      <SlideViewer
        imageId={image.id}
        manifest={manifest.data}
        options={DEFAULT_OPTIONS}
        channels={channels}
        onViewer={onViewer}
        layered={layered}
        scaleBar={!(layered && bare)}
      />
      {annotations && <AnnotationOverlay viewer={viewer} imageId={image.id} />}
    </Box>
  );
  return (
    <Stack
      gap={4}
      style={{ flex: 1, minWidth: 0, minHeight: 0, ...style }}
      data-testid={`aligned-${role.toLowerCase()}`}
      aria-label={`${role}: ${image.name}`}
      role="region"
    >
      {!bare && (
        <Text size="sm" fw={600} truncate>
          {role}: {image.name}
        </Text>
      )}
      <Box
        style={{ flex: 1, minHeight: 0, borderRadius: 8, overflow: 'hidden' }}
        bd="1px solid var(--mantine-color-gray-3)"
        bg={layered && !bare ? (manifest.data?.kind === 'fluorescence' ? 'black' : 'white') : undefined}
      >
        {body}
      </Box>
    </Stack>
  );
}

const channelsOf = (manifest: LayersManifest | undefined): ChannelDisplay[] =>
  manifest?.layers.map((l) => ({ visible: true, color: hexToRgb(l.color), min: 0, max: 255 })) ?? [];
