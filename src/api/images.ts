// Requests and responses of /v2/images (spec §7): list and stats filters, the update body, and the
// signed download URLs (§9: thumbnail and label URLs are cached for 60 s).
import { z } from 'zod';
import { Id } from './common';
import { ImageStatuses, ScanTypes, StorageStatuses } from './enums';
import { Image, ImageChannel } from './entities';
import { isoDateParam, pageParams, repeated } from './lists';
import { UploadText } from './messages';

/** How long a signed file URL works. */
export const FILE_URL_TTL_SECONDS = 10 * 60;
/** §9: thumbnail and slide label URLs are cached 60 s; their URLs stay the same within that window. */
export const PREVIEW_URL_CACHE_SECONDS = 60;

/**
 * The name of the image of scene `scene` (0-based) of a file holding `count` scenes, as the viewer's
 * image selector and lists show it: 'slide.czi (scene 2 of 3)'; a file of one scene keeps its name.
 */
export const sceneImageName = (fileName: string, scene: number, count: number): string =>
  count > 1 ? `${fileName} (scene ${scene + 1} of ${count})` : fileName;

const imageFilters = {
  scanGroupId: repeated(Id),
  id: repeated(Id),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  status: repeated(z.enum(ImageStatuses)),
  storageStatus: repeated(z.enum(StorageStatuses)),
  sourceImageId: repeated(Id),
  name: z.string().trim().max(200).optional(),
  createdAtStart: isoDateParam.optional(),
  createdAtEnd: isoDateParam.optional(),
};

/** §7: images by slide, 100 per page, newest first (§9). */
export const ImageListQuery = z.object({
  ...pageParams(100, 100),
  orderBy: z.enum(['createdAt', 'updatedAt', 'name']).default('createdAt'),
  ...imageFilters,
});
export type ImageListQuery = z.input<typeof ImageListQuery>;

export const ImageStatsQuery = z.object(imageFilters);
export type ImageFilters = z.infer<typeof ImageStatsQuery>;
/** Bytes of the original files of the readable images matching the filters. */
export const ImageStats = z.object({ totalFileSize: z.number() });

export const UpdateImageBody = z.strictObject({
  image: z
    .strictObject({
      name: z.string().trim().min(1).max(200),
      status: z.enum(ImageStatuses),
      displayStatus: z.string().trim().min(1).max(50),
      scanType: z.enum(ScanTypes).nullable(),
      pixelScale: z.number().positive().nullable(),
      channels: z.array(ImageChannel).max(64),
      displayUUIDs: z.array(z.string().max(100)).max(64),
      info: z
        .strictObject({
          uploadStart: z.string().max(40),
          uploadEnd: z.string().max(40),
          size: z.number().int().nonnegative(),
          traceback: z.string().max(20_000),
          rejection: z.string().max(2000),
          code: z.string().max(100),
          desc: z.string().max(2000),
        })
        .partial(),
    })
    .partial(),
});
export type UpdateImageBody = z.input<typeof UpdateImageBody>;

export const ImageResult = z.object({ result: Image });

/** What a canceled image carries in info (its upload row shows 'Canceled', §4.3 'aborted'). */
export const CANCELED_INFO = { code: 'aborted', desc: UploadText.canceled } as const;

export const DownloadUrl = z.object({ url: z.string() });
