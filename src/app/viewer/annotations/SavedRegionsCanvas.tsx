// The saved (and queued) regions of an image on one canvas over the viewer (canvas-layer.ts), kept in
// step with OpenSeadragon on each frame of its animation; a click or tap on a region selects it (the
// selection the Annotations panel shares, selection.ts), and the selected region is outlined on top,
// in SVG, with its name as the outline's title.
import { useEffect, useRef, useState } from 'react';
import type OpenSeadragon from 'openseadragon';
import { AnnotationUiText } from '../../../api/messages';
import { markPath } from './regions';
import { CanvasLayer, type FrameStats, type LayerShape, type View } from './canvas-layer';
import { selectAnnotation, useAnnotationSelection } from './selection';

type Osd = typeof OpenSeadragon;

function viewOf(osd: Osd, viewer: OpenSeadragon.Viewer): View | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  const origin = item.imageToViewerElementCoordinates(new osd.Point(0, 0));
  const far = item.imageToViewerElementCoordinates(new osd.Point(10_000, 0));
  return { x: origin.x, y: origin.y, scale: (far.x - origin.x) / 10_000 };
}

/** The bench reads what each frame drew from here (window.__annotationFrames, when it sets one). */
declare global {
  interface Window {
    __annotationFrames?: FrameStats[];
  }
}

const pathOf = (shape: LayerShape) =>
  shape.outlines.map((points) => markPath({ points, closed: true })).join(' ');

export function SavedRegionsCanvas({
  imageId,
  viewer,
  osd,
  shapes,
  shown,
}: {
  imageId: string;
  viewer: OpenSeadragon.Viewer | undefined;
  osd: Osd | undefined;
  shapes: readonly LayerShape[];
  shown: boolean;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const highlight = useRef<SVGGElement>(null);
  const [layer, setLayer] = useState<CanvasLayer>();
  const selected = useAnnotationSelection(imageId).id;

  useEffect(() => {
    if (!canvas.current) return;
    const l = new CanvasLayer(canvas.current, (stats) => window.__annotationFrames?.push(stats));
    setLayer(l);
    return () => l.destroy();
  }, []);

  useEffect(() => layer?.setShapes(shapes), [layer, shapes]);
  useEffect(() => layer?.setShown(shown), [layer, shown]);
  useEffect(() => layer?.setSelected(selected), [layer, selected]);

  // Each frame the viewer draws, the layer draws too (when the view moved), and the highlight follows.
  useEffect(() => {
    if (!viewer || !osd || !layer) return;
    const update = () => {
      const view = viewOf(osd, viewer);
      layer.setView(view);
      highlight.current?.setAttribute(
        'transform',
        view ? `translate(${view.x} ${view.y}) scale(${view.scale})` : 'scale(0)',
      );
    };
    const click = (e: OpenSeadragon.CanvasClickEvent) => {
      if (!e.quick) return;
      const hit = layer.hitTest(e.position.x, e.position.y);
      // A miss is left to the select tool, which also picks lines and points and clears on a miss.
      if (!hit) return;
      selectAnnotation(imageId, hit.key, 'slide');
      // A click on a region selects it rather than zooming in.
      e.preventDefaultAction = true;
    };
    const events = ['update-viewport', 'animation', 'resize', 'open'] as const;
    events.forEach((e) => viewer.addHandler(e, update));
    viewer.addHandler('canvas-click', click);
    viewer.world.addHandler('add-item', update);
    update();
    return () => {
      events.forEach((e) => viewer.removeHandler(e, update));
      viewer.removeHandler('canvas-click', click);
      viewer.world.removeHandler('add-item', update);
    };
  }, [viewer, osd, layer, imageId]);

  const chosen = shown && selected !== undefined ? shapes.find((s) => s.key === selected) : undefined;
  return (
    <>
      <canvas
        ref={canvas}
        data-testid="annotation-canvas"
        data-regions={shapes.length}
        data-selected-id={chosen?.key}
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none' }}
      />
      <svg
        width="100%"
        height="100%"
        style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }}
      >
        <g ref={highlight}>
          {chosen && (
            <path
              d={pathOf(chosen)}
              data-testid="annotation-region"
              fill="none"
              stroke={chosen.pending ? '#f08c00' : '#1c7ed6'}
              strokeWidth={2.5}
              strokeDasharray={chosen.pending ? '6 4' : undefined}
              vectorEffect="non-scaling-stroke"
            >
              <title>{chosen.name || AnnotationUiText.region}</title>
            </path>
          )}
        </g>
      </svg>
    </>
  );
}
