// The server reads of the slides' routes, as query options shared by a route's loader and its page.
import type { Image } from '../../api/entities';
import { v2Query } from '../lib/v2-query';

/** One image (/image/{imageId}). */
export const imageQuery = (imageId: string) => v2Query<Image>(`/images/${imageId}`);
