// The app's reads and request of rigid alignments (/v2/alignments/rigids): one alignment, polled while
// the server computes it; the alignments of an image pair; a new request. Requests go straight to the
// server, not through the outbox: an alignment is a computation there, pointless to queue offline.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RigidAlignmentOutput } from '../../../api/alignments';
import type { AlignmentRigid } from '../../../api/entities';
import type { ListResult } from '../../../api/lists';
import { api } from '../../lib/api';

/** How often an alignment still being computed is asked about again. */
export const ALIGNMENT_POLL_MS = 2_000;

export const isComputing = (a: Pick<AlignmentRigid, 'status'> | undefined) =>
  a?.status === 'active' || a?.status === 'processing';

/** The two images an alignment was requested for (its inputData). */
export function pairOf(a: AlignmentRigid): { referenceImageId: string; targetImageId: string } | undefined {
  const input = a.inputData as { referenceImageId?: unknown; targetImageId?: unknown } | null;
  if (typeof input?.referenceImageId !== 'string' || typeof input.targetImageId !== 'string')
    return undefined;
  return { referenceImageId: input.referenceImageId, targetImageId: input.targetImageId };
}

/** A fulfilled alignment's result, when it has a usable matrix. */
export function outputOf(a: AlignmentRigid | undefined): RigidAlignmentOutput | undefined {
  if (a?.status !== 'fulfilled') return undefined;
  const out = a.outputData as Partial<RigidAlignmentOutput> | null;
  const m = out?.matrix;
  const row = (r: unknown) => Array.isArray(r) && r.length === 3 && r.every((v) => Number.isFinite(v));
  return Array.isArray(m) && m.length === 2 && row(m[0]) && row(m[1])
    ? (out as RigidAlignmentOutput)
    : undefined;
}

export const alignmentQuery = (id: string) =>
  queryOptions({
    queryKey: ['v2', `/alignments/rigids/${id}`],
    queryFn: async () => (await api<{ result: AlignmentRigid }>('GET', `/alignments/rigids/${id}`)).result,
    // Asked again while the server computes it; a settled alignment does not change.
    refetchInterval: (q) => (isComputing(q.state.data) ? ALIGNMENT_POLL_MS : false),
  });

export function useAlignment(id: string | undefined) {
  return useQuery({ ...alignmentQuery(id ?? ''), enabled: !!id });
}

const pairPath = (referenceImageId: string, targetImageId: string) =>
  `/alignments/rigids?referenceImageId=${encodeURIComponent(referenceImageId)}` +
  `&targetImageId=${encodeURIComponent(targetImageId)}&orderBy=createdAt&orderDirection=desc&limit=10`;

/** The pair's alignments, newest first. */
export function usePairAlignments(referenceImageId: string | undefined, targetImageId: string | undefined) {
  return useQuery({
    queryKey: ['v2', pairPath(referenceImageId ?? '', targetImageId ?? '')],
    queryFn: async () =>
      (await api<ListResult<AlignmentRigid>>('GET', pairPath(referenceImageId!, targetImageId!))).result,
    enabled: !!referenceImageId && !!targetImageId && referenceImageId !== targetImageId,
  });
}

/** Asks the server to align `targetImageId` onto `referenceImageId`; answers the new alignment. */
export function useRequestAlignment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (pair: { referenceImageId: string; targetImageId: string }) =>
      (
        await api<{ result: AlignmentRigid }>('POST', '/alignments/rigids', {
          body: { alignmentRigid: { inputData: pair } },
        })
      ).result,
    onSuccess: (created, pair) => {
      queryClient.setQueryData(alignmentQuery(created.id).queryKey, created);
      void queryClient.invalidateQueries({
        queryKey: ['v2', pairPath(pair.referenceImageId, pair.targetImageId)],
      });
    },
  });
}
