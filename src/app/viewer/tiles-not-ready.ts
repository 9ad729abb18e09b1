// Tiles a slide still being processed cannot give yet: far from full resolution, a slide without a
// pyramid of its own answers 503 (TILE_NOT_READY, with Retry-After) until ours is written. The viewer
// says so instead of showing a blank slide, and asks once every few seconds whether they are ready;
// when they are, every tile that failed is made loadable again and the view is drawn. OpenSeadragon's
// own retries do not fit: it retries one failed tile at a time, each after the delay, so a view of 30
// missing tiles would fill in over minutes after the pyramid is done.
import { useEffect, useState } from 'react';
import type OpenSeadragon from 'openseadragon';
import { errorAnswer } from '../../api/errors';

/** How often the first missing tile is asked for again, unless the server's Retry-After says. */
const ASK_EVERY_MS = 5_000;
const NOT_READY = errorAnswer('TILE_NOT_READY').status;

const retryAfterMs = (res: Response) => {
  const seconds = Number(res.headers.get('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : ASK_EVERY_MS;
};

/**
 * Whether some tiles of `viewer` (and its navigator) wait for the slide's processing. Tiles that failed
 * for another reason (offline, unreadable) stay gaps, as before.
 */
export function useTilesNotReady(viewer: OpenSeadragon.Viewer | undefined): boolean {
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    if (!viewer) return;
    const viewers = [viewer, viewer.navigator].filter((v): v is OpenSeadragon.Viewer => !!v);
    // Tiles whose load failed: OpenSeadragon sets their `exists` false and does not ask for them again.
    let failed: OpenSeadragon.Tile[] = [];
    let asking = false;
    let notReady = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const release = () => {
      const tiles = failed;
      failed = [];
      notReady = false;
      setWaiting(false);
      for (const t of tiles) t.exists = true;
      // An item whose other tiles are loaded counts as fully loaded and looks at its tiles again only
      // when the view moves; OpenSeadragon has no public call that asks it to without dropping the
      // tiles it holds (reset), so its update flag is set.
      for (const v of viewers) {
        for (let i = 0; i < v.world.getItemCount(); i++)
          (v.world.getItemAt(i) as OpenSeadragon.TiledImage & { _needsUpdate: boolean })._needsUpdate = true;
        v.forceRedraw();
      }
    };

    // One request at a time, for the first tile still missing: 503 waits and asks again; the tile
    // itself means the pyramid has it, so every failed tile may be asked for again; any other answer
    // (a part of the slide that cannot be read) leaves that tile a gap and asks about the next.
    const ask = async (): Promise<void> => {
      const tile = failed[0];
      if (stopped || asking || !tile) return;
      asking = true;
      let askNext = false;
      try {
        const res = await fetch(tile.getUrl(), { credentials: 'same-origin', cache: 'no-store' });
        if (stopped) return;
        if (res.status === NOT_READY) {
          notReady = true;
          setWaiting(true);
          timer = setTimeout(() => void ask(), retryAfterMs(res));
        } else if (res.ok) {
          release();
        } else {
          failed.shift();
          askNext = true;
        }
      } catch {
        // Offline: the tiles are gaps, as any other tile the cache does not hold.
        failed = [];
        notReady = false;
        setWaiting(false);
      } finally {
        asking = false;
      }
      if (askNext) {
        if (failed.length) await ask();
        else if (notReady) release();
      }
    };

    const onFailed = (event: OpenSeadragon.TileLoadFailedEvent) => {
      failed.push(event.tile);
      if (!notReady && !asking) void ask();
    };
    for (const v of viewers) v.addHandler('tile-load-failed', onFailed);
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const v of viewers) v.removeHandler('tile-load-failed', onFailed);
      setWaiting(false);
    };
  }, [viewer]);
  return waiting;
}
