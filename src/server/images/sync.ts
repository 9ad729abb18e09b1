// Images in the sync feed (DESIGN "Pull"): readable per the Image read scope. The feed has no ability
// at hand to redact with, so it never carries info.traceback (super admins read it with GET /images/:id).
import { images } from '../db/schema';
import type { SyncSource } from '../sync/kinds';
import { imageScope, toImage, type ImageRow } from './repository';

export const imageSyncSources: readonly SyncSource[] = [
  {
    kind: 'images',
    type: 'Image',
    table: images,
    idColumn: images.id,
    changeSeqColumn: images.changeSeq,
    scope: imageScope,
    toEntities: async (_db, rows) =>
      rows.map((r) => {
        const image = toImage(r as ImageRow);
        const { traceback: _hidden, ...info } = image.info;
        return { ...image, info };
      }),
  },
];
