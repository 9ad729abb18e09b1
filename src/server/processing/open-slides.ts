// Slides held open for the tiles cut on demand (tile-on-demand.ts): opening a slide parses its header
// and index (a CZI's subblock directory, an MRXS Index.dat), which a request per tile must not repeat,
// and a reader keeps its decoded file tiles in its own cache between requests. A slide is opened
// through the file storage (the file in place on disk; ranged reads with S3) and held open; it closes
// after IDLE_MS without use, or when more than MAX_OPEN slides are open (least recently used first,
// never one being read).
import type { Slide } from '../slides/types';
import type { FileStorage } from '../storage';
import { openStoredSlide } from './files';

/** Slides kept open at once per process (each holds file handles and its reader's decoded tiles). */
export const MAX_OPEN = 8;
/** A slide nobody read for this long is closed. */
export const IDLE_MS = 60_000;

interface Held {
  slide: Promise<Slide>;
  /** Readers using the slide now: it is never closed under them. */
  users: number;
  timer?: NodeJS.Timeout;
  close(): Promise<void>;
}

/** Opens the slide through the storage (the file on disk, ranged reads from S3) until `close`. */
function holdOpen(
  storage: FileStorage,
  keys: string[],
  opts: { scene: number; maxPixels?: number },
): { slide: Promise<Slide>; close(): Promise<void> } {
  const slide = openStoredSlide(storage, keys, opts);
  return {
    slide,
    close: async () => {
      const s = await slide.catch(() => undefined);
      await s?.close();
    },
  };
}

export class OpenSlides {
  private readonly held = new Map<string, Held>();

  /**
   * Runs `read` on the slide `key` names, opening it (from `keys` in `storage`) unless it is open.
   * A slide that fails to open is forgotten, so the next request tries again.
   */
  async use<T>(
    key: string,
    open: { storage: FileStorage; keys: string[]; scene: number; maxPixels?: number },
    read: (slide: Slide) => Promise<T>,
  ): Promise<T> {
    let h = this.held.get(key);
    if (h)
      this.held.delete(key); // re-inserted below: Map order is the recency order
    else {
      const opened = holdOpen(open.storage, open.keys, { scene: open.scene, maxPixels: open.maxPixels });
      h = { slide: opened.slide, users: 0, close: opened.close };
      const entry = h;
      opened.slide.catch(() => {
        if (this.held.get(key) === entry) this.held.delete(key);
      });
    }
    this.held.set(key, h);
    clearTimeout(h.timer);
    h.users++;
    this.trim();
    try {
      return await read(await h.slide);
    } finally {
      h.users--;
      const entry = h;
      if (!entry.users && this.held.get(key) === entry) {
        entry.timer = setTimeout(() => void this.drop(key, entry), IDLE_MS);
        entry.timer.unref();
      }
    }
  }

  /** Closes the slide of `key` if it is open and unused (its image's pyramid is complete, or deleted). */
  async forget(key: string): Promise<void> {
    const h = this.held.get(key);
    if (h && !h.users) await this.drop(key, h);
  }

  private trim(): void {
    for (const [key, h] of this.held) {
      if (this.held.size <= MAX_OPEN) break;
      if (!h.users) void this.drop(key, h);
    }
  }

  private async drop(key: string, h: Held): Promise<void> {
    if (this.held.get(key) === h) this.held.delete(key);
    clearTimeout(h.timer);
    await h.close();
  }
}
