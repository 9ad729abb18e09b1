// Reactions in the sync feed (DESIGN "Pull"): readable per the Reaction read scope.
import { reactions } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import { reactionScope, toReaction, type ReactionRow } from './repository';

export const reactionSyncSources: readonly SyncSource[] = [
  {
    kind: 'reactions',
    type: 'Reaction',
    table: reactions,
    idColumn: reactions.id,
    changeSeqColumn: reactions.changeSeq,
    scope: reactionScope,
    toEntities: async (_db, rows) => rows.map((r) => toReaction(r as ReactionRow)),
  },
];
