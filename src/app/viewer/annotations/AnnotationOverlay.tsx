// Annotations drawn on the slide: every region of the image's annotations over the deep-zoom view,
// following pan and zoom — closed outlines on one canvas (SavedRegionsCanvas: thousands cost one
// canvas), lines and points in SVG — and the annotation tools (tools/DrawingTools.tsx: shapes drawn
// with finger, pen or mouse, measured live, saved through the outbox, selected, moved, reshaped,
// deleted, undone and redone). A region picked in the Annotations panel is shown: the viewer fits it.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import type { AnnotationClass } from '../../../api/annotation-classes';
import { classificationOfContent } from '../../../api/annotation-geojson';
import { AnnotationUiText } from '../../../api/messages';
import { useMutations } from '../../sync/hooks';
import { markPath, marksOf, noteOf, outlinesOf, type Mark } from './regions';
import { shownContent, useAnnotationDenials, useImageAnnotations } from './useImageAnnotations';
import { classColor } from './ClassPieces';
import { DrawingTools, toolIconSize, useCoarsePointer } from './tools/DrawingTools';
import { EyeIcon } from './tools/icons';
import { useAnnotationClasses } from './useAnnotationClasses';
import { useImageFrame } from './useImageFrame';
import { SavedRegionsCanvas } from './SavedRegionsCanvas';
import { fitImageBox, framedBox } from './fit-region';
import { clearAnnotationSelection, useAnnotationSelection } from './selection';
import type { LayerShape } from './canvas-layer';
import { useMappingFeed } from './view-mapping';

type Osd = typeof OpenSeadragon;

interface Shape {
  key: string;
  name: string;
  marks: Mark[];
  pending: boolean;
  /** The class colour as CSS, if the region has a class with one. */
  color?: string;
}

const colorOf = (content: unknown, classes?: readonly AnnotationClass[]) =>
  classColor(classificationOfContent(content), classes);

type Annotations = ReturnType<typeof useImageAnnotations>;

/** The closed outlines of each shape, as the canvas layer draws them. */
const layerShapesOf = (shapes: Shape[]): LayerShape[] =>
  shapes
    .map(({ marks, ...rest }) => ({
      ...rest,
      outlines: marks.filter((m) => !isOpen(m)).map((m) => m.points),
    }))
    .filter((s) => s.outlines.length > 0);

function shapesOf(
  rows: Annotations['rows'],
  edits: Annotations['edits'],
  creates: Annotations['creates'],
  classes?: readonly AnnotationClass[],
): Shape[] {
  return [
    ...rows.map((a) => {
      const edit = edits.get(a.id);
      const content = shownContent(a, edit);
      return {
        key: a.id,
        name: a.name || noteOf(content),
        marks: marksOf(content),
        pending: !!edit && !edit.error,
        color: colorOf(content, classes),
      };
    }),
    ...creates
      .filter((q) => !q.error)
      .map((q) => ({
        key: q.id,
        name: q.name || noteOf(q.content),
        marks: marksOf(q.content),
        pending: true,
        color: colorOf(q.content, classes),
      })),
  ].filter((s) => s.marks.length > 0);
}

/** A mark the canvas does not draw: a line (polyline, ruler) or a point. */
const isOpen = (m: Mark) => !m.closed || m.points.length < 3;

/**
 * Lines and points in image pixels, in SVG; the parent's transform places them, so panning does not
 * re-render them. Closed outlines are on the canvas.
 */
const OpenMarks = memo(function OpenMarks({ shapes }: { shapes: Shape[] }) {
  return shapes.map((s) =>
    s.marks.filter(isOpen).map((o, i) => (
      <path
        key={`${s.key}-${i}`}
        d={markPath(o)}
        data-testid="annotation-region"
        data-kind={o.points.length === 1 ? 'point' : o.closed ? 'polygon' : 'line'}
        fill={o.closed ? 'rgba(255, 196, 0, 0.12)' : 'none'}
        stroke={s.pending ? '#f08c00' : (s.color ?? '#fab005')}
        strokeWidth={o.points.length === 1 ? 10 : 2}
        strokeLinecap="round"
        strokeDasharray={s.pending ? '6 4' : undefined}
        vectorEffect="non-scaling-stroke"
      >
        <title>{s.name || AnnotationUiText.region}</title>
      </path>
    )),
  );
});

export function AnnotationOverlay({
  viewer,
  imageId,
  reviewId,
}: {
  viewer: OpenSeadragon.Viewer | undefined;
  imageId: string;
  reviewId?: string;
}) {
  const { list, rows, edits, creates } = useImageAnnotations(imageId);
  const denied = useAnnotationDenials();
  const mutations = useMutations();
  const { pixelSize } = useImageFrame(imageId);
  const classes = useAnnotationClasses().data;
  const [osd, setOsd] = useState<Osd>();
  const [shown, setShown] = useState(true);
  const touch = useCoarsePointer();

  useEffect(() => {
    void import('openseadragon').then((m) => setOsd(() => m.default));
  }, []);

  // Follow the viewport on every frame of a pan or zoom by setting the lines' transform, not by
  // rendering: a render of the overlay and its tools each frame costs more than the frame has.
  const mappings = useMappingFeed(viewer, osd);
  const openMarks = useRef<SVGGElement>(null);
  useEffect(() => {
    const apply = () => {
      const m = mappings.get();
      openMarks.current?.setAttribute(
        'transform',
        m ? `translate(${m.x} ${m.y}) scale(${m.scale})` : 'scale(0)',
      );
    };
    apply();
    return mappings.subscribe(apply);
  }, [mappings]);

  // Parsed once per change of the annotations, not on every frame of a pan or zoom.
  const shapes = useMemo(() => shapesOf(rows, edits, creates, classes), [rows, edits, creates, classes]);
  const outlined = useMemo(() => layerShapesOf(shapes), [shapes]);
  // A region the server refused is said here, where it was drawn, until the user lets it go.
  const refused = useMemo(
    () => creates.filter((q) => q.error && outlinesOf(q.content).length > 0),
    [creates],
  );
  const selection = useAnnotationSelection(imageId);

  // A pick in the panel shows its region (each pick: the same row picked again shows it again).
  const shapesNow = useRef(shapes);
  shapesNow.current = shapes;
  useEffect(() => {
    if (!viewer || selection.source !== 'list' || selection.id === undefined) return;
    const shape = shapesNow.current.find((s) => s.key === selection.id);
    const box = shape && framedBox(shape.marks.flatMap((m) => m.points));
    if (box) fitImageBox(viewer, box);
  }, [viewer, selection]);

  // An annotation deleted (here, by undo, or by someone else) is no longer selected.
  const listed = !!list.data;
  useEffect(() => {
    const id = selection.id;
    if (id === undefined || !listed) return;
    if (!rows.some((a) => a.id === id) && !creates.some((q) => q.id === id && !q.error))
      clearAnnotationSelection(imageId);
  }, [selection, listed, rows, creates, imageId]);

  const { refetch } = list;
  const refetchRows = useCallback(async () => (await refetch()).data?.result ?? [], [refetch]);

  return (
    <>
      <div
        data-testid="annotation-layer"
        // Clips the regions canvas, which reaches beyond the view (canvas-layer.ts).
        style={{ position: 'absolute', inset: 0, pointerEvents: 'none', zIndex: 2, overflow: 'hidden' }}
      >
        <SavedRegionsCanvas
          imageId={imageId}
          viewer={viewer}
          mappings={mappings}
          shapes={outlined}
          shown={shown}
        />
        <svg width="100%" height="100%" style={{ position: 'absolute', inset: 0, overflow: 'hidden' }}>
          <g ref={openMarks} transform="scale(0)">
            {shown && <OpenMarks shapes={shapes} />}
          </g>
        </svg>
      </div>
      {/* Keyed by image: the tools' undo history belongs to one viewing of one image. */}
      <DrawingTools
        key={imageId}
        viewer={viewer}
        mappings={mappings}
        imageId={imageId}
        reviewId={reviewId}
        pixelSize={pixelSize}
        rows={rows}
        edits={edits}
        creates={creates}
        refetch={refetchRows}
        deniedCreate={denied.create}
        deniedEdit={denied.edit}
        classes={classes}
      >
        <Tooltip label={shown ? AnnotationUiText.hideRegions : AnnotationUiText.showRegions}>
          <ActionIcon
            size={toolIconSize(touch)}
            variant="white"
            aria-label={shown ? AnnotationUiText.hideRegions : AnnotationUiText.showRegions}
            aria-pressed={!shown}
            onClick={() => setShown((s) => !s)}
          >
            <EyeIcon open={shown} />
          </ActionIcon>
        </Tooltip>
      </DrawingTools>
      {refused.length > 0 && (
        <Stack gap={6} maw={340} style={{ position: 'absolute', top: 64, left: 10, zIndex: 3 }}>
          {refused.map((q) => (
            <Paper key={q.id} withBorder shadow="sm" p={8} role="alert" data-testid="region-refused">
              <Text size="sm" c="red.8">
                {AnnotationUiText.regionNotSaved(q.name)}: {q.error}
              </Text>
              <Group justify="flex-end" mt={4}>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => void mutations.discard(q.id)}
                >
                  {AnnotationUiText.discard}
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </>
  );
}
