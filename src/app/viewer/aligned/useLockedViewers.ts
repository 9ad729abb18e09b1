// Locked navigation of two OpenSeadragon viewers through an alignment: the viewer the user last
// touched (pointer, wheel, key, focus) leads, and every frame it moves the other follows, placed by
// followView (aligned-transform.ts) in level-0 pixels. Only the leader is listened to, so the follower's
// own update never echoes back. Unlocked, each moves alone; locking again brings the follower over.
import { useEffect, useRef } from 'react';
import type OpenSeadragon from 'openseadragon';
import { followView, invertAffine, type Affine, type View } from './aligned-transform';

type Osd = typeof OpenSeadragon;

function viewOf(viewer: OpenSeadragon.Viewer): View | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  const vp = viewer.viewport;
  const c = item.viewportToImageCoordinates(vp.getCenter(true));
  return {
    center: [c.x, c.y],
    scale: item.viewportToImageZoom(vp.getZoom(true)),
    rotation: vp.getRotation(true),
    flipped: vp.getFlip(),
  };
}

function showView(osd: Osd, viewer: OpenSeadragon.Viewer, view: View) {
  const item = viewer.world.getItemAt(0);
  if (!item) return;
  const vp = viewer.viewport;
  if (vp.getFlip() !== view.flipped) vp.setFlip(view.flipped);
  vp.setRotation(view.rotation, true);
  vp.zoomTo(item.imageToViewportZoom(view.scale), undefined, true);
  vp.panTo(item.imageToViewportCoordinates(new osd.Point(view.center[0], view.center[1])), true);
}

/** The events by which a viewer becomes the one the user is moving. */
const TAKE_LEAD = ['pointerdown', 'wheel', 'keydown', 'focusin', 'touchstart'] as const;

/**
 * Keeps `target` showing what `reference` shows (and the other way round) while `locked`.
 * `matrix` maps a target level-0 pixel to the reference's.
 */
export function useLockedViewers(
  reference: OpenSeadragon.Viewer | undefined,
  target: OpenSeadragon.Viewer | undefined,
  matrix: Affine,
  locked: boolean,
) {
  const leader = useRef<'reference' | 'target'>('reference');
  useEffect(() => {
    if (!reference || !target || !locked) return;
    let osd: Osd | undefined;
    let live = true;
    const inverse = invertAffine(matrix);
    const follow = () => {
      if (!osd || !live) return;
      const [from, to, toLeader] =
        leader.current === 'reference' ? [reference, target, matrix] : [target, reference, inverse];
      const view = viewOf(from);
      if (view) showView(osd, to, followView(view, toLeader));
    };
    const onReference = () => leader.current === 'reference' && follow();
    const onTarget = () => leader.current === 'target' && follow();
    const leadReference = () => (leader.current = 'reference');
    const leadTarget = () => (leader.current = 'target');
    void import('openseadragon').then(({ default: OSD }) => {
      if (!live) return;
      osd = OSD;
      follow();
    });
    reference.addHandler('viewport-change', onReference);
    target.addHandler('viewport-change', onTarget);
    // A viewer's item may open after the other has moved: placed once OpenSeadragon has sent it home.
    // A resized follower (the overlay's layout change) keeps its zoom, not the leader's view: placed
    // again once OpenSeadragon has resized it.
    const later = () => void setTimeout(follow, 0);
    reference.world.addHandler('add-item', later);
    target.world.addHandler('add-item', later);
    reference.addHandler('resize', later);
    target.addHandler('resize', later);
    for (const type of TAKE_LEAD) {
      reference.element.addEventListener(type, leadReference, { capture: true, passive: true });
      target.element.addEventListener(type, leadTarget, { capture: true, passive: true });
    }
    return () => {
      live = false;
      reference.removeHandler('viewport-change', onReference);
      target.removeHandler('viewport-change', onTarget);
      reference.world.removeHandler('add-item', later);
      target.world.removeHandler('add-item', later);
      reference.removeHandler('resize', later);
      target.removeHandler('resize', later);
      for (const type of TAKE_LEAD) {
        reference.element.removeEventListener(type, leadReference, { capture: true });
        target.element.removeEventListener(type, leadTarget, { capture: true });
      }
    };
  }, [reference, target, matrix, locked]);
  /** Hands the lead to one side (the overlay, where only the reference takes input). */
  return leader;
}
