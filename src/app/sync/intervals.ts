// How often each mirrored kind is revalidated while a page shows it: the refresh intervals of spec §9.
// Kinds §9 does not name (orders, order lists, organs, pipelines, predictors, reactions) use 30 s, the
// interval of the other catalogue-like lists (docs/decisions.md).
import type { SyncKind } from '../../api/sync';

export const REFRESH_MS: Record<SyncKind, number> = {
  studies: 10_000,
  reviews: 10_000,
  'review-groups': 10_000,
  organizations: 30_000,
  users: 30_000,
  'scan-groups': 30_000,
  images: 30_000,
  'scan-orders': 30_000,
  'scan-order-lists': 30_000,
  organs: 30_000,
  pipelines: 30_000,
  predictors: 30_000,
  reactions: 30_000,
};
