// The server reads of the orders' routes, as query options shared by a route's loader and its page.
import { queryOptions } from '@tanstack/react-query';
import type { Activity } from '../../api/entities';
import type { ListResult } from '../../api/lists';
import { api } from '../lib/api';

/** An order's history from the activity feed (/reports/orders/{orderId}): not mirrored, so online only. */
export const orderHistoryQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['order-history', orderId],
    queryFn: () =>
      api<ListResult<Activity>>(
        'GET',
        `/activities?reference=ScanOrder&referenceId=${encodeURIComponent(orderId)}&limit=100`,
      ),
    refetchInterval: 10_000,
  });
