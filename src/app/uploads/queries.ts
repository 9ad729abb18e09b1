// The server reads of the uploads' routes, as query options shared by a route's loader and its page.
import { queryOptions } from '@tanstack/react-query';
import type { ListResult } from '../../api/lists';
import { UPLOAD_POLL_MS, type UploadGroup } from '../../api/uploads';
import { api } from '../lib/api';

/**
 * The user's upload groups on the server (/all-recent-uploads: those made on another device), polled
 * while shown. Keyed by user so one user's answer never shows for the next on a shared device.
 */
export const uploadGroupsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['upload-groups', userId],
    queryFn: () => api<ListResult<UploadGroup>>('GET', '/upload-groups?limit=100'),
    refetchInterval: UPLOAD_POLL_MS,
    retry: false,
  });
