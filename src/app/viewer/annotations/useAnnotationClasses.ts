// The annotation classes an organization's people classify with (its own and its ancestors'), from
// GET /v2/annotation-classes; kept in the persisted query cache, so the list is there offline too.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnotationClass } from '../../../api/annotation-classes';
import type { ListResult } from '../../../api/lists';
import { api } from '../../lib/api';

const pathOf = (organizationId?: string) =>
  `/annotation-classes${organizationId ? `?organizationId=${encodeURIComponent(organizationId)}` : ''}`;

/** The classes of an organization (default: the user's own). */
export function useAnnotationClasses(organizationId?: string) {
  const path = pathOf(organizationId);
  return useQuery({
    queryKey: ['v2', path],
    queryFn: () => api<ListResult<AnnotationClass>>('GET', path),
    select: (d) => d.result,
    staleTime: 60_000,
  });
}

/** Reads every class list again (after a change in the admin area). */
export function useRefreshAnnotationClasses() {
  const client = useQueryClient();
  return () =>
    client.invalidateQueries({
      predicate: (q) => q.queryKey[0] === 'v2' && String(q.queryKey[1]).startsWith('/annotation-classes'),
    });
}
