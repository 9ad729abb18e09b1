// The selected annotation of each image, one for the slide and the Annotations panel together: a
// region picked on the slide marks its row, a row picked in the panel selects (and shows) its region.
// A module store rather than React state, because the panel lives in a Drawer away from the slide's
// tree and both read it with useSyncExternalStore. Kept in memory only: a selection does not outlive
// the session's page.
import { useCallback, useSyncExternalStore } from 'react';

/** Where the selection was made: the panel's pick asks the slide to show the region. */
export type SelectionSource = 'slide' | 'list';

export interface AnnotationSelection {
  /** The selected annotation (or queued create), if any. */
  id: string | undefined;
  source: SelectionSource;
  /** Counts the picks: picking the same row again shows its region again. */
  seq: number;
}

const NONE: AnnotationSelection = Object.freeze({ id: undefined, source: 'slide', seq: 0 });

const current = new Map<string, AnnotationSelection>();
const listeners = new Map<string, Set<() => void>>();
let picks = 0;

const notify = (imageId: string) => listeners.get(imageId)?.forEach((fn) => fn());

/** The image's selection now (the same object until it changes). */
export const annotationSelection = (imageId: string): AnnotationSelection => current.get(imageId) ?? NONE;

/** Selects an annotation of the image, or clears the selection with `undefined`. */
export function selectAnnotation(imageId: string, id: string | undefined, source: SelectionSource): void {
  if (id === undefined) {
    if (!current.has(imageId)) return;
    current.delete(imageId);
  } else {
    current.set(imageId, { id, source, seq: ++picks });
  }
  notify(imageId);
}

export const clearAnnotationSelection = (imageId: string): void =>
  selectAnnotation(imageId, undefined, 'slide');

/** Calls `fn` on each change of the image's selection; returns the unsubscribe. */
export function subscribeAnnotationSelection(imageId: string, fn: () => void): () => void {
  let set = listeners.get(imageId);
  if (!set) listeners.set(imageId, (set = new Set()));
  set.add(fn);
  return () => {
    set.delete(fn);
    if (set.size === 0) listeners.delete(imageId);
  };
}

/** The image's selection, re-rendering on each change. */
export function useAnnotationSelection(imageId: string): AnnotationSelection {
  const subscribe = useCallback((fn: () => void) => subscribeAnnotationSelection(imageId, fn), [imageId]);
  const snapshot = useCallback(() => annotationSelection(imageId), [imageId]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
