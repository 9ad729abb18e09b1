// The argument checks every reader's readRegion shares, in one place: a region of at least 1×1 whole
// pixels, a level that exists, and for fluorescence a channel that exists (brightfield reads channel
// 0 whatever is asked). The registry wraps each slide it opens, so a reader only reads pixels.
import { SlideErrors } from './errors';
import { assertRect } from './raw';
import type { AssociatedName, RawImage, Slide } from './types';

class CheckedSlide implements Slide {
  constructor(private readonly inner: Slide) {
    const into = inner.readRegionInto?.bind(inner);
    if (into)
      this.readRegionInto = async (level, x, y, img, channel = 0) =>
        into(level, x, y, img, this.check(level, img.width, img.height, channel));
  }

  get format() {
    return this.inner.format;
  }
  get scenes() {
    return this.inner.scenes;
  }
  get scene() {
    return this.inner.scene;
  }
  get levels() {
    return this.inner.levels;
  }
  get channels() {
    return this.inner.channels;
  }
  get kind() {
    return this.inner.kind;
  }
  get bitsPerSample() {
    return this.inner.bitsPerSample;
  }
  get pixelSizeUm() {
    return this.inner.pixelSizeUm;
  }
  get associatedNames() {
    return this.inner.associatedNames;
  }
  get properties() {
    return this.inner.properties;
  }

  async readRegion(
    level: number,
    x: number,
    y: number,
    w: number,
    h: number,
    channel = 0,
  ): Promise<RawImage> {
    return this.inner.readRegion(level, x, y, w, h, this.check(level, w, h, channel));
  }

  /** Present when the reader's is. */
  readonly readRegionInto?: Slide['readRegionInto'];

  /** Throws for a bad rectangle, level or channel; returns the channel the reader is given. */
  private check(level: number, w: number, h: number, channel: number): number {
    assertRect(w, h);
    if (!Number.isInteger(level) || !this.levels[level]) throw SlideErrors.noLevel(level, this.levels.length);
    if (this.kind === 'brightfield') return 0;
    if (!Number.isInteger(channel) || !this.channels[channel])
      throw SlideErrors.noChannel(channel, this.channels.length);
    return channel;
  }

  associated(name: AssociatedName): Promise<RawImage | undefined> {
    return this.inner.associated(name);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** `slide` with its readRegion arguments checked before the reader sees them. */
export const checkedSlide = (slide: Slide): Slide => new CheckedSlide(slide);
