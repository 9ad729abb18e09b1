// Annotations drawn on the slide (issue 9): every region of the image's annotations as an outline over
// the deep-zoom canvas, following pan and zoom, and a Draw region tool — a freehand outline with finger,
// pen or mouse, then a name and a note — saved through the outbox like every change (offline too).
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { ActionIcon, Button, Group, Modal, Stack, TextInput, Textarea, Tooltip } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { ANNOTATION_NAME_MAX } from '../../../api/annotations';
import { AnnotationUiText } from '../../../api/messages';
import {
  noteOf,
  outlineArea,
  outlinesOf,
  regionContent,
  simplifyOutline,
  type Outline,
  type Point,
} from './regions';
import { shownContent, useAddAnnotation, useImageAnnotations } from './useImageAnnotations';

type Osd = typeof OpenSeadragon;

/** Image pixels → the canvas element's CSS pixels: one scale and an offset (the viewer never rotates). */
interface Mapping {
  x: number;
  y: number;
  scale: number;
}

function mappingOf(osd: Osd, viewer: OpenSeadragon.Viewer): Mapping | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  const origin = item.imageToViewerElementCoordinates(new osd.Point(0, 0));
  const far = item.imageToViewerElementCoordinates(new osd.Point(10_000, 0));
  return { x: origin.x, y: origin.y, scale: (far.x - origin.x) / 10_000 };
}

const pathOf = (outline: Outline, closed: boolean) =>
  outline.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x} ${y}`).join(' ') + (closed ? ' Z' : '');

/** An eye, struck through when the regions are hidden. */
function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </svg>
  );
}

interface Shape {
  key: string;
  name: string;
  outlines: Outline[];
  pending: boolean;
}

type Annotations = ReturnType<typeof useImageAnnotations>;

function shapesOf(
  rows: Annotations['rows'],
  edits: Annotations['edits'],
  creates: Annotations['creates'],
): Shape[] {
  return [
    ...rows.map((a) => {
      const edit = edits.get(a.id);
      const content = shownContent(a, edit);
      return {
        key: a.id,
        name: a.name || noteOf(content),
        outlines: outlinesOf(content),
        pending: !!edit && !edit.error,
      };
    }),
    ...creates
      .filter((q) => !q.error)
      .map((q) => ({
        key: q.id,
        name: q.name || noteOf(q.content),
        outlines: outlinesOf(q.content),
        pending: true,
      })),
  ].filter((s) => s.outlines.length > 0);
}

/** The outlines in image pixels; the parent's transform places them, so panning does not re-render them. */
const Regions = memo(function Regions({ shapes }: { shapes: Shape[] }) {
  return shapes.map((s) =>
    s.outlines.map((o, i) => (
      <path
        key={`${s.key}-${i}`}
        d={pathOf(o, true)}
        data-testid="annotation-region"
        fill="rgba(255, 196, 0, 0.12)"
        stroke={s.pending ? '#f08c00' : '#fab005'}
        strokeWidth={2}
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
  const { rows, edits, creates } = useImageAnnotations(imageId);
  const addAnnotation = useAddAnnotation(imageId, reviewId);
  const [osd, setOsd] = useState<Osd>();
  const [mapping, setMapping] = useState<Mapping>();
  const [shown, setShown] = useState(true);
  const [drawing, setDrawing] = useState(false);
  const [stroke, setStroke] = useState<Point[]>([]);
  const [drawn, setDrawn] = useState<Point[]>();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const active = useRef<number | null>(null);
  const layer = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void import('openseadragon').then((m) => setOsd(() => m.default));
  }, []);

  // Follow the viewport: every frame of a pan or zoom, and when the image has been added.
  useEffect(() => {
    if (!viewer || !osd) return;
    const update = () => setMapping(mappingOf(osd, viewer));
    const events = ['update-viewport', 'resize', 'open'] as const;
    events.forEach((e) => viewer.addHandler(e, update));
    viewer.world.addHandler('add-item', update);
    update();
    return () => {
      events.forEach((e) => viewer.removeHandler(e, update));
      viewer.world.removeHandler('add-item', update);
    };
  }, [viewer, osd]);

  // While drawing, a drag outlines a region instead of panning the slide; Escape leaves the tool.
  useEffect(() => {
    if (!viewer) return;
    viewer.setMouseNavEnabled(!drawing);
    if (!drawing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      active.current = null;
      setStroke([]);
      setDrawing(false);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      viewer.setMouseNavEnabled(true);
    };
  }, [viewer, drawing]);

  const toImage = (e: PointerEvent<HTMLDivElement>): Point | undefined => {
    const box = layer.current?.getBoundingClientRect();
    if (!box || !mapping) return undefined;
    const x = (e.clientX - box.left - mapping.x) / mapping.scale;
    const y = (e.clientY - box.top - mapping.y) / mapping.scale;
    return [x, y];
  };

  const finish = () => {
    active.current = null;
    const outline = simplifyOutline(stroke, 1 / (mapping?.scale ?? 1));
    setStroke([]);
    // A tap or a line encloses nothing: not a region.
    const minArea = (8 / (mapping?.scale ?? 1)) ** 2;
    if (outline.length < 3 || outlineArea(outline) < minArea) return;
    setDrawn(outline);
    setDrawing(false);
  };

  const save = async () => {
    if (!drawn) return;
    await addAnnotation(name, regionContent(drawn, note.trim()));
    setDrawn(undefined);
    setName('');
    setNote('');
  };

  // Parsed once per change of the annotations, not on every frame of a pan or zoom.
  const shapes = useMemo(() => shapesOf(rows, edits, creates), [rows, edits, creates]);

  const transform = mapping ? `translate(${mapping.x} ${mapping.y}) scale(${mapping.scale})` : undefined;
  return (
    <>
      <div
        ref={layer}
        data-testid="annotation-layer"
        style={{
          position: 'absolute',
          inset: 0,
          pointerEvents: drawing ? 'auto' : 'none',
          cursor: drawing ? 'crosshair' : undefined,
          touchAction: 'none',
          zIndex: 2,
        }}
        onPointerDown={(e) => {
          if (!drawing || active.current !== null) return;
          const p = toImage(e);
          if (!p) return;
          active.current = e.pointerId;
          e.currentTarget.setPointerCapture(e.pointerId);
          setStroke([p]);
        }}
        onPointerMove={(e) => {
          if (e.pointerId !== active.current) return;
          const p = toImage(e);
          if (p) setStroke((s) => [...s, p]);
        }}
        onPointerUp={(e) => e.pointerId === active.current && finish()}
        onPointerCancel={(e) => {
          if (e.pointerId !== active.current) return;
          active.current = null;
          setStroke([]);
        }}
      >
        {transform && (
          <svg width="100%" height="100%" style={{ position: 'absolute', inset: 0, overflow: 'hidden' }}>
            <g transform={transform}>
              {shown && <Regions shapes={shapes} />}
              {stroke.length > 1 && (
                <path
                  d={pathOf(stroke, false)}
                  fill="none"
                  stroke="#1c7ed6"
                  strokeWidth={2}
                  vectorEffect="non-scaling-stroke"
                />
              )}
              {drawn && (
                <path
                  d={pathOf(drawn, true)}
                  fill="rgba(28, 126, 214, 0.12)"
                  stroke="#1c7ed6"
                  strokeWidth={2}
                  vectorEffect="non-scaling-stroke"
                />
              )}
            </g>
          </svg>
        )}
      </div>
      <Group gap={6} style={{ position: 'absolute', top: 10, left: 10, zIndex: 3 }}>
        <Tooltip label={drawing ? AnnotationUiText.drawHint : AnnotationUiText.drawRegion}>
          <Button
            size="sm"
            variant={drawing ? 'filled' : 'white'}
            aria-pressed={drawing}
            onClick={() => setDrawing((d) => !d)}
            disabled={!mapping}
          >
            {drawing ? AnnotationUiText.cancelDrawing : AnnotationUiText.drawRegion}
          </Button>
        </Tooltip>
        <Tooltip label={shown ? AnnotationUiText.hideRegions : AnnotationUiText.showRegions}>
          <ActionIcon
            size="lg"
            variant="white"
            aria-label={shown ? AnnotationUiText.hideRegions : AnnotationUiText.showRegions}
            aria-pressed={!shown}
            onClick={() => setShown((s) => !s)}
          >
            <EyeIcon open={shown} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Modal
        opened={!!drawn}
        onClose={() => setDrawn(undefined)}
        title={AnnotationUiText.newRegion}
        size="sm"
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            placeholder="Name (optional)"
            maxLength={ANNOTATION_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            data-autofocus
          />
          <Textarea
            label="Note"
            autosize
            minRows={2}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDrawn(undefined)}>
              Cancel
            </Button>
            <Button onClick={() => void save()}>{AnnotationUiText.saveRegion}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
