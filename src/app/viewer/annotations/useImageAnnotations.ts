// An image's annotations as the viewer shows them: every one the server lists for the image, read
// page after page (kept on the device, so they show offline and at once on a reload; annotations are
// not a mirrored kind), and the changes still queued in the outbox (creates of this image, edits of any
// annotation), which show as Pending until sent. Re-reading the set asks first for its count and
// newest change: an unchanged set costs one small request, not every page again.
import { useEffect, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Annotation } from '../../../api/entities';
import { stableJson } from '../../../api/common';
import type { ListResult } from '../../../api/lists';
import type { OutboxEntry } from '../../../local/db';
import { writeKept } from '../../../local/kept-sets';
import { getValue } from '../../../local/kv';
import { api } from '../../lib/api';
import { useMe } from '../../session/session-context';
import { annotationToCreate, asSubject, denialMessage } from '../../../access';
import { useAbility } from '../../session/ability';
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
      // Only a refused entry is Not saved: `error` also holds the last network failure of one that
      // is still pending (offline, to be sent again).
      error: e.state === 'failed' ? e.error : undefined,
    });
  }
  return out;
}

/** What tells two annotations of one image apart on screen: their name and their content. */
export const lookKey = (name: string | undefined, content: unknown) =>
  `${name ?? ''}\u0000${stableJson(content ?? null)}`;

const NO_ROWS: Annotation[] = [];
const NO_ENTRIES: OutboxEntry[] = [];

/** The list's largest page (AnnotationListQuery) and how many pages are read at once. */
const PAGE = 100;
const IN_FLIGHT = 4;

/** Every annotation of an image, oldest first, and what tells whether the set changed since. */
export interface AnnotationSet {
  result: Annotation[];
  /** The count and the newest change: a create, an edit or a delete changes one of them. */
  version: string;
}

/**
 * Reads every page of the image's annotations (IN_FLIGHT at a time); `previous` is returned as it is
 * when the set has not changed since it was read.
 */
export async function readAnnotationSet(imageId: string, previous?: AnnotationSet): Promise<AnnotationSet> {
  const base = `/annotations?imageId=${encodeURIComponent(imageId)}`;
  const probe = await api<ListResult<Annotation>>('GET', `${base}&orderBy=updatedAt&limit=1`);
  const version = `${probe.count} ${probe.result[0]?.updatedAt ?? ''}`;
  if (previous?.version === version) return previous;
  const pages: Annotation[][] = [];
  let next = 0;
  const pageCount = Math.ceil(probe.count / PAGE);
  const worker = async () => {
    for (let p = next++; p < pageCount; p = next++) {
      const page = await api<ListResult<Annotation>>(
        'GET',
        `${base}&orderBy=createdAt&orderDirection=asc&limit=${PAGE}&page=${p + 1}`,
      );
      pages[p] = page.result;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, pageCount) }, worker));
  // A change between two pages can shift a row across their boundary: each is kept once.
  const seen = new Set<string>();
  const result = pages.flat().filter((a) => !seen.has(a.id) && !!seen.add(a.id));
  return { result, version };
}

/**
 * The set as last read on this device, for this user: kept under a key of its own, as one JSON string
 * (cloned into IndexedDB at memory speed; the set as objects is a million small arrays), and written
 * only when the set changed, not with the query cache, which is saved every second. The device keeps
 * the most recent sets only, and drops them all on a full disk (local/kept-sets.ts).
 */
const storedKey = (userId: string, imageId: string) => `annotationSet:${userId}:${imageId}`;

async function readStoredSet(userId: string, imageId: string): Promise<AnnotationSet | undefined> {
  const stored = await getValue(storedKey(userId, imageId)).catch(() => undefined);
  if (!stored || typeof stored !== 'object') return undefined;
  const { version, json } = stored as { version?: unknown; json?: unknown };
  if (typeof version !== 'string' || typeof json !== 'string') return undefined;
  try {
    const result: unknown = JSON.parse(json);
    return Array.isArray(result) ? { version, result: result as Annotation[] } : undefined;
  } catch {
    return undefined;
  }
}

const storeSet = (userId: string, imageId: string, set: AnnotationSet) =>
  writeKept('annotationSet:', storedKey(userId, imageId), {
    version: set.version,
    json: JSON.stringify(set.result),
  }).catch(
    // A full disk is not worth an error here: the stored set is only a head start.
    () => undefined,
  );

/** Stable between renders while the list and the outbox are unchanged, so the overlay can memoize its shapes. */
export function useImageAnnotations(imageId: string) {
  const queryClient = useQueryClient();
  const userId = useMe().user.id;
  const queryKey = useMemo(() => ['v2', 'annotation-set', imageId], [imageId]);
  const list = useQuery({
    queryKey,
    queryFn: async () => {
      const previous =
        queryClient.getQueryData<AnnotationSet>(queryKey) ?? (await readStoredSet(userId, imageId));
      const set = await readAnnotationSet(imageId, previous);
      if (set !== previous) void storeSet(userId, imageId, set);
      return set;
    },
    refetchInterval: 30_000,
    // Kept by storeSet: the query cache is saved whole every second, far too often for 10,000 outlines.
    meta: { persist: false },
    // A changed set is new throughout; comparing it deeply with the old one would only cost time.
    structuralSharing: false,
  });
  // Drawn from the device's copy at once, offline too, while the network is asked.
  useEffect(() => {
    let live = true;
    if (queryClient.getQueryData(queryKey) === undefined)
      void readStoredSet(userId, imageId).then((stored) => {
        if (live && stored && queryClient.getQueryData(queryKey) === undefined)
          queryClient.setQueryData(queryKey, stored, { updatedAt: 0 });
      });
    return () => {
      live = false;
    };
  }, [queryClient, queryKey, userId, imageId]);
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
  // A row whose delete is queued is gone from the slide and the list at once (offline too).
  const deleting = useMemo(
    () => new Set(queued.filter((q) => q.method === 'DELETE' && !q.error).map((q) => q.annotationId)),
    [queued],
  );
  const stored = list.data?.result ?? NO_ROWS;
  const rows = useMemo(
    () => (deleting.size ? stored.filter((r) => !deleting.has(r.id)) : stored),
    [stored, deleting],
  );
  // A create the server has committed can be in the list before its entry leaves the outbox (a read
  // answered between the two): it is shown once, as the stored row.
  const creates = useMemo(() => {
    const posts = queued.filter((q) => q.method === 'POST');
    if (!posts.length || !rows.length) return posts;
    // Only rows named like a queued create can be one: the others' content is not serialised.
    const names = new Set(posts.map((q) => q.name ?? ''));
    const stored = new Set(rows.filter((r) => names.has(r.name)).map((r) => lookKey(r.name, r.content)));
    return posts.filter((q) => !stored.has(lookKey(q.name, q.content)));
  }, [queued, rows]);
  return { list, rows, edits, creates };
}

/** What an annotation shows: its queued edit's content while that waits, else the server's. */
export const shownContent = (row: { content: unknown }, edit: QueuedAnnotation | undefined): unknown =>
  edit && !edit.error && edit.content !== undefined ? edit.content : row.content;

/**
 * Adds an annotation to the image through the outbox (offline too); in a review, it belongs to it. A
 * copy from another image (aligned viewing) names that image as its `sourceImageId`.
 */
export function useAddAnnotation(imageId: string, reviewId?: string) {
  const mutations = useMutations();
  return (name: string, content: unknown, sourceImageId?: string) =>
    mutations.enqueue({
      method: 'POST',
      path: '/annotations',
      body: {
        annotation: {
          imageId,
          name: name.trim(),
          content,
          ...(reviewId ? { reviewId } : {}),
          ...(sourceImageId ? { sourceImageId } : {}),
        },
      },
    });
}

/**
 * Why the user may not add annotations here (Add annotation, Draw region), or undefined when they may;
 * and why they may not edit one of theirs. The texts are the ones the server answers with (src/access).
 */
export function useAnnotationDenials() {
  const { ability, me } = useAbility();
  return useMemo(
    () => ({
      create: denialMessage(ability, 'create', annotationToCreate(me)),
      edit: (annotation: Annotation) =>
        denialMessage(ability, 'update', asSubject('Annotation', annotation), 'content'),
    }),
    [ability, me],
  );
}
