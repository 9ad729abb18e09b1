// Studies in the sync feed (DESIGN "Pull"): readable per the Study read scope.
import { studies } from '../db/schema';
import { registerSyncSource } from '../sync/kinds';
import { studyScope, toStudy, type StudyRow } from './repository';

export function studySyncSource(): void {
  registerSyncSource({
    kind: 'studies',
    type: 'Study',
    table: studies,
    idColumn: studies.id,
    changeSeqColumn: studies.changeSeq,
    scope: studyScope,
    toEntities: async (_db, rows) => rows.map((r) => toStudy(r as StudyRow)),
  });
}
