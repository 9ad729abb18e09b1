// The saved (and queued) regions of an image on one canvas over the viewer (canvas-layer.ts), kept in
// step with OpenSeadragon on each frame of its animation; a click or tap on a region selects it (the
// selection the Annotations panel shares, selection.ts), and the selected region is outlined on top,
// in SVG (white under blue, seen on any stain), with its name as the outline's title.
import { useEffect, useRef, useState } from 'react';
import type OpenSeadragon from 'openseadragon';
import { AnnotationUiText } from '../../../api/messages';
import { markPath } from './regions';
import { CanvasLayer, type FrameStats, type LayerShape } from './canvas-layer';
import { selectAnnotation, useAnnotationSelection } from './selection';
import type { MappingFeed } from './view-mapping';

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
  mappings,
  shapes,
  shown,
}: {
  imageId: string;
  viewer: OpenSeadragon.Viewer | undefined;
  mappings: MappingFeed;
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

  // Each frame the viewer draws, the layer draws too (when the view moved), and the highlight follows.
  useEffect(() => {
    if (!layer) return;
    const update = () => {
      const view = mappings.get();
      layer.setView(view);
      highlight.current?.setAttribute(
        'transform',
        view ? `translate(${view.x} ${view.y}) scale(${view.scale})` : 'scale(0)',
      );
    };
    update();
    return mappings.subscribe(update);
  }, [mappings, layer]);

  useEffect(() => {
    if (!viewer || !layer) return;
    const click = (e: OpenSeadragon.CanvasClickEvent) => {
      if (!e.quick) return;
      const hit = layer.hitTest(e.position.x, e.position.y);
      // A miss is left to the select tool, which also picks lines and points and clears on a miss.
      if (!hit) return;
      selectAnnotation(imageId, hit.key, 'slide');
      // A click on a region selects it rather than zooming in.
      e.preventDefaultAction = true;
    };
    viewer.addHandler('canvas-click', click);
    return () => viewer.removeHandler('canvas-click', click);
  }, [viewer, layer, imageId]);

  const chosen = shown && selected !== undefined ? shapes.find((s) => s.key === selected) : undefined;
  return (
    <>
      <canvas
        ref={canvas}
        data-testid="annotation-canvas"
        data-regions={shapes.length}
        data-selected-id={chosen?.key}
        // Placed and sized by the layer: beyond the view by a margin, moved while panning.
        style={{ position: 'absolute', pointerEvents: 'none' }}
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
              fill="none"
              stroke="rgba(255, 255, 255, 0.9)"
              strokeWidth={5}
              vectorEffect="non-scaling-stroke"
            />
          )}
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
