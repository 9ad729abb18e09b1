// Studies in the sync feed (DESIGN "Pull"): readable per the Study read scope.
import { studies } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import { studyScope, toStudy, type StudyRow } from './repository';

export const studySyncSources: readonly SyncSource[] = [
  {
    kind: 'studies',
    type: 'Study',
    table: studies,
    idColumn: studies.id,
    changeSeqColumn: studies.changeSeq,
    scope: studyScope,
    toEntities: async (_db, rows) => rows.map((r) => toStudy(r as StudyRow)),
  },
];
