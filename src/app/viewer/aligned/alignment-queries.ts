// The app's reads and request of rigid alignments (/v2/alignments/rigids): one alignment, polled while
// the server computes it; the alignments of an image pair; a new request. Requests go straight to the
// server, not through the outbox: an alignment is a computation there, pointless to queue offline.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlignmentRigid } from '../../../api/entities';
import type { ListResult } from '../../../api/lists';
import { api } from '../../lib/api';
import { isComputing } from './alignment-status';

/** How often an alignment still being computed is asked about again. */
export const ALIGNMENT_POLL_MS = 2_000;

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
