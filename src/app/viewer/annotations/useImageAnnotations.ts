// An image's annotations as the viewer shows them: the server's list (kept in the persisted query
// cache, so it shows offline; annotations are not a mirrored kind) and the changes still queued in the
// outbox (creates of this image, edits of any annotation), which show as Pending until sent.
import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Annotation } from '../../../api/entities';
import { stableJson } from '../../../api/common';
import type { ListResult } from '../../../api/lists';
import type { OutboxEntry } from '../../../local/db';
import { api } from '../../lib/api';
import { useMutations, useObserved } from '../../sync/hooks';

export interface QueuedAnnotation {
  id: string;
  method: string;
  annotationId?: string;
  name?: string;
  content?: unknown;
  error?: string;
}

/** The outbox entries about this image's annotations (creates) or any annotation (edits). */
function queuedOf(entries: readonly OutboxEntry[], imageId: string): QueuedAnnotation[] {
  const out: QueuedAnnotation[] = [];
  for (const e of entries) {
    if (!e.path.startsWith('/annotations')) continue;
    const body = (
      e.body as { annotation?: { imageId?: string; name?: string; content?: unknown } } | undefined
    )?.annotation;
    if (e.method === 'POST' && body?.imageId !== imageId) continue;
    out.push({
      id: e.id,
      method: e.method,
      annotationId: e.path.split('/')[2],
      name: body?.name,
      content: body?.content,
      error: e.error,
    });
  }
  return out;
}

/** What tells two annotations of one image apart on screen: their name and their content. */
const lookKey = (name: string | undefined, content: unknown) =>
  `${name ?? ''}\u0000${stableJson(content ?? null)}`;

const NO_ROWS: Annotation[] = [];
const NO_ENTRIES: OutboxEntry[] = [];

/** Stable between renders while the list and the outbox are unchanged, so the overlay can memoize its shapes. */
export function useImageAnnotations(imageId: string) {
  const path = `/annotations?imageId=${encodeURIComponent(imageId)}&limit=100`;
  const list = useQuery({
    queryKey: ['v2', path],
    queryFn: () => api<ListResult<Annotation>>('GET', path),
    refetchInterval: 30_000,
  });
  const entries = useObserved((db) => db.outbox.orderBy('seq').toArray(), []) ?? NO_ENTRIES;
  const queued = useMemo(() => queuedOf(entries, imageId), [entries, imageId]);
  const pendingCount = queued.length;
  const { refetch } = list;
  // When queued changes have been sent, read the list again.
  useEffect(() => {
    void refetch();
  }, [pendingCount, refetch]);
  // The newest queued edit of each annotation (refused ones too, so they can be shown as Not saved).
  const edits = useMemo(
    () => new Map(queued.filter((q) => q.method === 'PATCH').map((q) => [q.annotationId, q])),
    [queued],
  );
  const rows = list.data?.result ?? NO_ROWS;
  // A create the server has committed can be in the list before its entry leaves the outbox (a read
  // answered between the two): it is shown once, as the stored row.
  const creates = useMemo(() => {
    const posts = queued.filter((q) => q.method === 'POST');
    if (!posts.length || !rows.length) return posts;
    const stored = new Set(rows.map((r) => lookKey(r.name, r.content)));
    return posts.filter((q) => !stored.has(lookKey(q.name, q.content)));
  }, [queued, rows]);
  return { list, rows, edits, creates };
}

/** What an annotation shows: its queued edit's content while that waits, else the server's. */
export const shownContent = (row: { content: unknown }, edit: QueuedAnnotation | undefined): unknown =>
  edit && !edit.error && edit.content !== undefined ? edit.content : row.content;

/** Adds an annotation to the image through the outbox (offline too); in a review, it belongs to it. */
export function useAddAnnotation(imageId: string, reviewId?: string) {
  const mutations = useMutations();
  return (name: string, content: unknown) =>
    mutations.enqueue({
      method: 'POST',
      path: '/annotations',
      body: { annotation: { imageId, name: name.trim(), content, ...(reviewId ? { reviewId } : {}) } },
    });
}
