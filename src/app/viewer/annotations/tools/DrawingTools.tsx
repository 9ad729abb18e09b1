// The annotation tools over the slide: the tool bar (select, rectangle, ellipse, polygon, freehand,
// polyline, point, ruler; delete, undo, redo — each with its shortcut in its tooltip), the shape being
// drawn with its live measurement, the selected shape with its handles, and the name-and-note dialog
// that saves a finished shape through the outbox. One pointer draws or edits; the pointers are watched
// on the viewer's element without being captured, so OpenSeadragon still sees a second finger and
// pinches to zoom (panning by drag is off while a drawing tool is active).
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type OpenSeadragon from 'openseadragon';
import { withClassification, type AnnotationClass } from '../../../../api/annotation-classes';
import { measureContent, measurementText, type PixelSize } from '../../../../api/annotation-measurements';
import { ANNOTATION_NAME_MAX } from '../../../../api/annotations';
import type { Annotation } from '../../../../api/entities';
import { AnnotationUiText, extractMessage } from '../../../../api/messages';
import { DeniedTooltip } from '../../../lib/DeniedTooltip';
import { useMe } from '../../../session/session-context';
import { ClassPicker } from '../ClassPieces';
import type { Point } from '../regions';
import { shownContent, type QueuedAnnotation } from '../useImageAnnotations';
import {
  contentOf,
  contentWithGeometry,
  editableGeometryOf,
  handleAt,
  handlesOf,
  hits,
  moveHandle,
  translate,
  type ToolGeometry,
} from './geometry';
import { canRedo, canUndo } from './history';
import { ToolIcon } from './icons';
import {
  finish,
  interrupt,
  pointerDown,
  pointerMove,
  pointerUp,
  previewOf,
  startDrawing,
  type DrawState,
} from './machine';
import { keyAction, SHORTCUTS, ToolText, TOOLS, tooltipOf, type Tool } from './tools';
import { useShapeEdits, type Selectable } from './useShapeEdits';
import { selectAnnotation, useAnnotationSelection } from '../selection';
import { useHasMapping, useMapping, type Mapping, type MappingFeed } from '../view-mapping';

/** A press within this many screen pixels of a line, a point or a handle is on it. */
const HIT_SCREEN_PX = 10;
/** A press that moves less than this is a tap (select), not a drag. */
const TAP_SCREEN_PX = 5;

const DEVICE_TYPES = ['mouse', 'touch', 'pen'] as const;
type Gestures = Record<(typeof DEVICE_TYPES)[number], OpenSeadragon.GestureSettings>;

const QUIET: OpenSeadragon.GestureSettings = {
  dragToPan: false,
  clickToZoom: false,
  dblClickToZoom: false,
  flickEnabled: false,
};
/** A press on a shape selects it: no zoom for that click, but the slide may still pan. */
const NO_CLICK_ZOOM: OpenSeadragon.GestureSettings = { clickToZoom: false, dblClickToZoom: false };

/** Turns OpenSeadragon's drag-to-pan and click-to-zoom off (pinch and wheel zoom stay); returns the undo. */
function quietGestures(viewer: OpenSeadragon.Viewer, quiet = QUIET): () => void {
  const saved = {} as Gestures;
  for (const t of DEVICE_TYPES) {
    const g = viewer.gestureSettingsByDeviceType(t);
    saved[t] = { ...g };
    Object.assign(g, quiet);
  }
  return () => {
    for (const t of DEVICE_TYPES) Object.assign(viewer.gestureSettingsByDeviceType(t), saved[t]);
  };
}

const svgPath = (g: ToolGeometry, m: Mapping): string => {
  const pts = g.type === 'Polygon' ? g.ring : g.type === 'LineString' ? g.points : [g.point];
  return pts.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x * m.scale + m.x} ${y * m.scale + m.y}`).join(' ');
};

/** The shape drawn over the slide in screen pixels: outline, and a dot for a point. */
function Figure({ g, m, color, testId }: { g: ToolGeometry; m: Mapping; color: string; testId?: string }) {
  if (g.type === 'Point')
    return (
      <circle
        data-testid={testId}
        cx={g.point[0] * m.scale + m.x}
        cy={g.point[1] * m.scale + m.y}
        r={6}
        fill={color}
        stroke="white"
        strokeWidth={2}
      />
    );
  return (
    <path
      data-testid={testId}
      d={svgPath(g, m)}
      fill={g.type === 'Polygon' ? 'rgba(28, 126, 214, 0.12)' : 'none'}
      stroke={color}
      strokeWidth={2}
    />
  );
}

/**
 * The shape being drawn (with its vertices) and the selected shape (with its handles), in screen
 * pixels: the one part of the tools that follows every frame of a pan or zoom, mounted only while
 * there is such a shape.
 */
function ToolFigures({
  mappings,
  preview,
  vertices,
  selection,
  handles,
  touch,
}: {
  mappings: MappingFeed;
  preview?: ToolGeometry;
  vertices?: readonly Point[];
  selection?: ToolGeometry;
  handles: boolean;
  touch: boolean;
}) {
  const m = useMapping(mappings);
  if (!m) return null;
  return (
    <svg
      width="100%"
      height="100%"
      style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none', zIndex: 2 }}
    >
      {preview && <Figure g={preview} m={m} color="#1c7ed6" testId="drawing-preview" />}
      {vertices?.map(([x, y], i) => (
        <circle
          key={i}
          cx={x * m.scale + m.x}
          cy={y * m.scale + m.y}
          r={i === 0 ? 7 : 4}
          fill="white"
          stroke="#1c7ed6"
          strokeWidth={2}
        />
      ))}
      {selection && (
        <g data-testid="selected-shape">
          <Figure g={selection} m={m} color="#e8590c" />
          {handles &&
            handlesOf(selection).map(([x, y], i) => (
              <rect
                key={i}
                x={x * m.scale + m.x - (touch ? 7 : 5)}
                y={y * m.scale + m.y - (touch ? 7 : 5)}
                width={touch ? 14 : 10}
                height={touch ? 14 : 10}
                fill="white"
                stroke="#e8590c"
                strokeWidth={2}
              />
            ))}
        </g>
      )}
    </svg>
  );
}

interface Drag {
  pointerId: number;
  start: Point;
  shape: Selectable;
  from: ToolGeometry;
  /** The handle being dragged, or -1 for a move of the whole shape. */
  handle: number;
  now?: ToolGeometry;
}

export interface DrawingToolsProps {
  viewer: OpenSeadragon.Viewer | undefined;
  /** Where the image is on screen (AnnotationOverlay's feed). */
  mappings: MappingFeed;
  imageId: string;
  reviewId?: string;
  pixelSize?: PixelSize;
  rows: readonly Annotation[];
  edits: ReadonlyMap<string | undefined, QueuedAnnotation>;
  creates: readonly QueuedAnnotation[];
  refetch(): Promise<readonly Annotation[]>;
  /** Why the user may not add annotations, or undefined. */
  deniedCreate?: string;
  deniedEdit(a: Annotation): string | undefined;
  classes?: readonly AnnotationClass[];
  /** Placed after the tools in the tool bar (the overlay's show/hide button). */
  children?: ReactNode;
}

/** Whether the main pointer is a finger: tool buttons are then 44 px targets. */
export const useCoarsePointer = () =>
  useMediaQuery('(pointer: coarse)', false, { getInitialValueInEffect: false });

/** The tool bar's button size: 44 px on touch screens, Mantine's lg (34 px) with a mouse. */
export const toolIconSize = (touch: boolean) => (touch ? 44 : 34);

export function DrawingTools(props: DrawingToolsProps) {
  const { viewer, mappings, pixelSize, rows, edits, creates, deniedCreate, deniedEdit, classes } = props;
  // Not the mapping itself: that changes on every frame of a pan, and a render of the tool bar then
  // costs more than the frame has. Only the shapes drawn in screen pixels follow it (ToolFigures).
  const placed = useHasMapping(mappings);
  const me = useMe();
  const touch = useCoarsePointer();
  const iconSize = toolIconSize(touch);
  const edits$ = useShapeEdits(props.imageId, props.reviewId, { rows, creates, refetch: props.refetch });
  const [tool, setTool] = useState<Tool>('select');
  const [draw, setDraw] = useState<DrawState>();
  const [drag, setDrag] = useState<Drag>();
  const selected = useAnnotationSelection(props.imageId).id;
  // Stable for the native listeners: the tools are keyed by image, so the image never changes here.
  const [setSelected] = useState(
    () => (id: string | undefined) => selectAnnotation(props.imageId, id, 'slide'),
  );
  const [drawn, setDrawn] = useState<ToolGeometry>();
  const [cursor, setCursor] = useState<[number, number]>();
  const [name, setName] = useState('');
  const [note, setNote] = useState('');
  const [drawnClass, setDrawnClass] = useState<AnnotationClass>();
  const [error, setError] = useState<string>();

  // The shapes the select tool can pick, topmost last; own ones (not refused) can be changed.
  const shapes = useMemo(() => {
    const out: (Selectable & { geometry: ToolGeometry; editable: boolean })[] = [];
    for (const a of rows) {
      const content = shownContent(a, edits.get(a.id));
      const geometry = editableGeometryOf(content);
      if (!geometry) continue;
      const editable = a.creatorUserId === me.user.id && !deniedEdit(a);
      out.push({ ref: a.id, stored: true, name: a.name, content, geometry, editable });
    }
    for (const q of creates) {
      const geometry = q.error ? undefined : editableGeometryOf(q.content);
      if (geometry)
        out.push({
          ref: q.id,
          stored: false,
          name: q.name ?? '',
          content: q.content,
          geometry,
          editable: true,
        });
    }
    return out;
  }, [rows, edits, creates, me.user.id, deniedEdit]);
  const selection = shapes.find((s) => s.ref === selected);

  // The latest of everything the native listeners read. Pointer moves can come faster than renders,
  // so the drawing and the drag are written here at once, not only when React renders them.
  const live = useRef({ tool, draw, drag, shapes, selection, selected, drawn });
  live.current = { ...live.current, tool, shapes, selection, selected, drawn };
  const putDraw = (next: DrawState | undefined) => {
    live.current.draw = next;
    setDraw(next);
  };
  const putDrag = (next: Drag | undefined) => {
    live.current.drag = next;
    setDrag(next);
  };

  // A drawing tool turns panning by drag off; pinch and wheel still zoom. Layout effects: the tool is
  // ready when its button shows pressed, so a click right after choosing it is never lost (or a pan).
  useLayoutEffect(() => {
    if (!viewer || tool === 'select') return;
    return quietGestures(viewer);
  }, [viewer, tool]);

  useLayoutEffect(() => {
    putDraw(tool === 'select' ? undefined : startDrawing(tool));
    putDrag(undefined);
  }, [tool]);

  // Pointers on the viewer, watched in the capture phase and never captured or stopped.
  useEffect(() => {
    if (!viewer) return;
    const element = viewer.element;
    const down = new Set<number>();
    let active: number | null = null;
    let press: { id: number; at: [number, number] } | undefined;
    let restore: (() => void) | undefined;
    const toImage = (e: PointerEvent): Point | undefined => {
      const m = mappings.get();
      if (!m) return undefined;
      const box = element.getBoundingClientRect();
      return [(e.clientX - box.left - m.x) / m.scale, (e.clientY - box.top - m.y) / m.scale];
    };
    const scale = () => ({ pixel: 1 / (mappings.get()?.scale ?? 1) });
    const onControl = (e: PointerEvent) =>
      e.target instanceof Element && !!e.target.closest('button, a, input, [role="dialog"], .navigator');

    const onDown = (e: PointerEvent) => {
      if (onControl(e) || (e.pointerType === 'mouse' && e.button !== 0)) return;
      down.add(e.pointerId);
      const { tool: t, draw: d, selection: sel, drawn: open } = live.current;
      if (open) return;
      if (down.size > 1) {
        // A second finger: a pinch. What the first one started is dropped; OpenSeadragon zooms.
        active = null;
        press = undefined;
        if (d) putDraw(interrupt(d));
        putDrag(undefined);
        return;
      }
      const p = toImage(e);
      if (!p) return;
      if (t !== 'select') {
        if (!d) return;
        active = e.pointerId;
        putDraw(pointerDown(d, p).state);
        setCursor([e.clientX, e.clientY]);
        return;
      }
      press = { id: e.pointerId, at: [e.clientX, e.clientY] };
      const tol = HIT_SCREEN_PX * scale().pixel;
      const handle = sel?.editable ? handleAt(sel.geometry, p, tol) : -1;
      if (!sel?.editable || (handle < 0 && !hits(sel.geometry, p, tol))) {
        if (live.current.shapes.some((s) => hits(s.geometry, p, tol)))
          restore = quietGestures(viewer, NO_CLICK_ZOOM);
        return;
      }
      // A drag on the selected shape moves or reshapes it instead of panning the slide.
      restore = quietGestures(viewer);
      active = e.pointerId;
      putDrag({ pointerId: e.pointerId, start: p, shape: sel, from: sel.geometry, handle });
    };

    const onMove = (e: PointerEvent) => {
      const { tool: t, draw: d, drag: dr } = live.current;
      const p = toImage(e);
      if (!p) return;
      if (t !== 'select' && d) {
        // Polygon and polyline follow a hovering mouse or pen too (the rubber band to the next vertex).
        if (e.pointerId !== active && (down.size > 0 || d.points.length === 0)) return;
        const next = pointerMove(d, p, scale()).state;
        if (next !== d) putDraw(next);
        setCursor([e.clientX, e.clientY]);
        return;
      }
      if (dr && e.pointerId === dr.pointerId) {
        const now =
          dr.handle >= 0
            ? moveHandle(dr.from, dr.handle, p)
            : translate(dr.from, p[0] - dr.start[0], p[1] - dr.start[1]);
        putDrag({ ...dr, now });
      }
    };

    const onUp = (e: PointerEvent) => {
      down.delete(e.pointerId);
      const { tool: t, draw: d, drag: dr, shapes: all } = live.current;
      if (e.pointerId === active) {
        active = null;
        const p = toImage(e);
        if (t !== 'select' && d && p) {
          const step = pointerUp(d, p, scale());
          putDraw(step.state);
          if (step.done) setDrawn(step.done);
        }
        if (dr) {
          putDrag(undefined);
          if (dr.now) {
            const content = contentWithGeometry(dr.now, dr.shape.content);
            void edits$.update(dr.shape, content).catch((err: unknown) => setError(extractMessage(err)));
          }
        }
      }
      if (restore) {
        // After OpenSeadragon has handled this release (its click-to-zoom reads the settings then).
        const r = restore;
        restore = undefined;
        setTimeout(r, 0);
      }
      if (t === 'select' && press?.id === e.pointerId && !dr) {
        const moved = Math.hypot(e.clientX - press.at[0], e.clientY - press.at[1]);
        const p = toImage(e);
        if (moved < TAP_SCREEN_PX && p) {
          const tol = HIT_SCREEN_PX * scale().pixel;
          const hit = [...all].reverse().find((s) => hits(s.geometry, p, tol));
          setSelected(hit?.ref);
        }
      }
      press = undefined;
    };

    const onCancel = (e: PointerEvent) => {
      down.delete(e.pointerId);
      if (e.pointerId !== active) return;
      active = null;
      const { draw: d } = live.current;
      if (d) putDraw(interrupt(d));
      putDrag(undefined);
    };

    element.addEventListener('pointerdown', onDown, true);
    element.addEventListener('pointermove', onMove, true);
    element.addEventListener('pointerup', onUp, true);
    element.addEventListener('pointercancel', onCancel, true);
    return () => {
      element.removeEventListener('pointerdown', onDown, true);
      element.removeEventListener('pointermove', onMove, true);
      element.removeEventListener('pointerup', onUp, true);
      element.removeEventListener('pointercancel', onCancel, true);
      restore?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the listeners read the latest state through `live`
  }, [viewer]);

  const fail = (err: unknown) => setError(extractMessage(err));
  const removeSelected = () => {
    if (!selection?.editable) return;
    setSelected(undefined);
    void edits$.remove(selection).catch(fail);
  };
  const pick = (t: Tool) => {
    if (t !== 'select' && deniedCreate) return;
    setSelected(undefined);
    setTool((now) => (now === t && t !== 'select' ? 'select' : t));
  };

  // Shortcuts, unless the user is typing or a dialog is open.
  const unselect = () => setSelected(undefined);
  const actions = useRef({ pick, removeSelected, unselect, undo: edits$.undo, redo: edits$.redo });
  actions.current = { pick, removeSelected, unselect, undo: edits$.undo, redo: edits$.redo };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || live.current.drawn) return;
      if (
        e.target instanceof Element &&
        e.target.closest('input, textarea, select, [contenteditable], [role="dialog"]')
      )
        return;
      const action = keyAction(e);
      if (!action) return;
      const a = actions.current;
      const { draw: d, selection: sel } = live.current;
      switch (action.type) {
        case 'tool':
          a.pick(action.tool);
          break;
        case 'undo':
          void a.undo().catch(fail);
          break;
        case 'redo':
          void a.redo().catch(fail);
          break;
        case 'delete':
          if (!sel) return;
          a.removeSelected();
          break;
        case 'finish': {
          if (!d) return;
          const step = finish(d);
          putDraw(step.state);
          if (step.done) setDrawn(step.done);
          break;
        }
        case 'cancel':
          if (d && (d.points.length > 0 || d.down)) putDraw(startDrawing(d.tool));
          // Clears any selection, also a note without a region picked in the panel.
          else if (live.current.selected) a.unselect();
          else setTool('select');
          break;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const save = async () => {
    if (!drawn) return;
    const content = withClassification(contentOf(drawn, note.trim()), drawnClass ?? null);
    setDrawn(undefined);
    setName('');
    setNote('');
    setDrawnClass(undefined);
    await edits$.create(name, content).catch(fail);
  };

  const preview = draw ? previewOf(draw) : undefined;
  const measureOf = (g: ToolGeometry | undefined) =>
    g ? measurementText(measureContent(contentOf(g, ''), pixelSize)) : '';
  const liveText = measureOf(drag?.now ?? preview);
  const drawnText = measureOf(drawn);
  const region = drawn?.type === 'Polygon';
  const shownSelection = drag?.now ?? selection?.geometry;
  // Only while a measurement follows the pointer: it asks the browser for a layout.
  const box = liveText && cursor ? viewer?.element.getBoundingClientRect() : undefined;

  const button = (
    label: string,
    key: string,
    icon: Parameters<typeof ToolIcon>[0]['name'],
    on: boolean,
    act: () => void,
    disabled = false,
  ) => (
    <Tooltip key={label} label={tooltipOf(label, key)}>
      <ActionIcon
        size={iconSize}
        variant={on ? 'filled' : 'white'}
        aria-label={label}
        aria-pressed={on}
        aria-keyshortcuts={key.replace('Ctrl', 'Control')}
        disabled={disabled || !placed}
        onClick={act}
      >
        <ToolIcon name={icon} />
      </ActionIcon>
    </Tooltip>
  );

  return (
    <>
      {(preview || shownSelection) && (
        <ToolFigures
          mappings={mappings}
          preview={preview}
          vertices={draw?.tool === 'polygon' || draw?.tool === 'polyline' ? draw.points : undefined}
          selection={shownSelection}
          handles={!!selection?.editable}
          touch={touch}
        />
      )}
      <Group
        gap={4}
        role="toolbar"
        aria-label={ToolText.toolBar}
        style={{ position: 'absolute', top: 10, left: 10, right: 10, zIndex: 3, pointerEvents: 'none' }}
      >
        <Group gap={4} style={{ pointerEvents: 'auto' }} wrap="wrap">
          {TOOLS.map((t) =>
            t.tool !== 'select' && deniedCreate ? (
              <DeniedTooltip key={t.tool} reason={deniedCreate}>
                <ActionIcon size={iconSize} variant="white" aria-label={t.label} disabled>
                  <ToolIcon name={t.tool} />
                </ActionIcon>
              </DeniedTooltip>
            ) : (
              button(t.label, t.key, t.tool, tool === t.tool, () => pick(t.tool))
            ),
          )}
          {button(
            ToolText.deleteShape,
            SHORTCUTS.delete,
            'delete',
            false,
            removeSelected,
            !selection?.editable,
          )}
          {button(
            ToolText.undo,
            SHORTCUTS.undo,
            'undo',
            false,
            () => void edits$.undo().catch(fail),
            !canUndo(edits$.history),
          )}
          {button(
            ToolText.redo,
            SHORTCUTS.redo,
            'redo',
            false,
            () => void edits$.redo().catch(fail),
            !canRedo(edits$.history),
          )}
          {props.children}
        </Group>
      </Group>
      {(tool === 'polygon' || tool === 'polyline') && (
        <Text
          size="xs"
          c="white"
          bg="rgba(0, 0, 0, 0.6)"
          px={6}
          py={2}
          // Under the tool bar (the scale bar holds the bottom left corner).
          style={{
            position: 'absolute',
            top: 10 + iconSize + 8,
            left: 10,
            maxWidth: 'calc(100% - 20px)',
            zIndex: 3,
            pointerEvents: 'none',
            borderRadius: 4,
          }}
        >
          {tool === 'polygon' ? ToolText.polygonHint : ToolText.polylineHint}
        </Text>
      )}
      {liveText && cursor && box && (
        <Paper
          shadow="sm"
          px={8}
          py={4}
          data-testid="live-measurement"
          // Beside the pointer, inside the slide; the drag that draws must not select its text.
          style={{
            position: 'absolute',
            left: Math.min(Math.max(cursor[0] - box.left + 16, 0), Math.max(box.width - 260, 0)),
            top: Math.min(Math.max(cursor[1] - box.top + 16, 0), Math.max(box.height - 40, 0)),
            zIndex: 3,
            pointerEvents: 'none',
            userSelect: 'none',
          }}
        >
          <Text size="sm">{liveText}</Text>
        </Paper>
      )}
      {error && (
        <Paper
          withBorder
          shadow="sm"
          p={8}
          role="alert"
          maw={340}
          style={{ position: 'absolute', bottom: 40, left: 10, zIndex: 3 }}
        >
          <Text size="sm" c="red.8">
            {error}
          </Text>
          <Group justify="flex-end" mt={4}>
            <Button size="compact-xs" variant="subtle" onClick={() => setError(undefined)}>
              OK
            </Button>
          </Group>
        </Paper>
      )}
      {/* No fade: while a closing dialog fades out, it is still over the slide and can take the click
          that starts the next shape. Not closed by a click outside: a tap that ends a shape (a
          polygon's first vertex, a point) is followed by the browser's click, which lands on the
          dialog's overlay just opened and would throw the shape away; Cancel and Escape close it. */}
      <Modal
        opened={!!drawn}
        onClose={() => setDrawn(undefined)}
        title={region ? AnnotationUiText.newRegion : ToolText.newShape}
        size="sm"
        transitionProps={{ duration: 0 }}
        closeOnClickOutside={false}
      >
        <Stack gap="sm">
          {drawnText && (
            <Text size="sm" c="dimmed" data-testid="drawn-measurement">
              {drawnText}
            </Text>
          )}
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
          {(classes?.length ?? 0) > 0 && (
            <ClassPicker
              value={drawnClass && { name: drawnClass.name }}
              classes={classes ?? []}
              onChange={(c) => setDrawnClass(c && 'id' in c ? c : undefined)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDrawn(undefined)}>
              Cancel
            </Button>
            <Button onClick={() => void save()}>
              {region ? AnnotationUiText.saveRegion : ToolText.saveShape}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
