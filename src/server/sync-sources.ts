// Every kind the sync feed serves (DESIGN "Pull"), listed once, as routes.ts lists the resources:
// each resource folder's sync.ts says how its rows are scoped and shown; this list is all the feed
// knows, handed to it when it is registered.
import { catalogSyncSources } from './catalog/sync';
import { imageSyncSources } from './images/sync';
import { orderSyncSources } from './orders/sync';
import { reactionSyncSources } from './reactions/sync';
import { reviewSyncSources } from './reviews/sync';
import { scanGroupSyncSources } from './scan-groups/sync';
import { studySyncSources } from './studies/sync';
import type { SyncSource } from './sync/kinds';
import { organizationSyncSources } from './users/sync';

export const SYNC_SOURCES: readonly SyncSource[] = [
  ...organizationSyncSources,
  ...catalogSyncSources,
  ...studySyncSources,
  ...scanGroupSyncSources,
  ...imageSyncSources,
  ...orderSyncSources,
  ...reviewSyncSources,
  ...reactionSyncSources,
];
