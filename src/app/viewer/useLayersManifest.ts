// An image's layers manifest (layers.json: its size, pixel size and DZI layers), read once and kept:
// it does not change once the image is viewable. Shared by the viewer and aligned viewing.
import { useQuery } from '@tanstack/react-query';
import { Misc } from '../../api/messages';
import { tilesPath, type LayersManifest } from '../../api/tiles';

export function useLayersManifest(imageId: string) {
  return useQuery({
    queryKey: ['tiles', imageId, 'layers'],
    queryFn: async () => {
      const res = await fetch(tilesPath(imageId, 'layers.json'), { credentials: 'same-origin' });
      if (!res.ok) throw new Error(Misc.imageNotAvailable);
      return (await res.json()) as LayersManifest;
    },
    staleTime: Infinity,
  });
}
