// An image's thumbnail (tiles/thumbnail.jpg), with the logo in its place while there is none. A slide
// just uploaded is viewable before its thumbnail exists (a slide without small levels of its own gets
// it from the pyramid, written behind), so a thumbnail that fails is asked for again a few times, more
// slowly each time, and shows as soon as it is there: no reload of the page for it.
import { useEffect, useState } from 'react';
import { Image as MImage, type ImageProps } from '@mantine/core';
import { tilesPath } from '../../api/tiles';

/** Waits before each new try: about five minutes in all, the processing of a large slide. */
const RETRY_AFTER_MS = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000];

const THUMBNAIL_FALLBACK = '/icons/logo.svg';

export function ImageThumbnail({
  imageId,
  alt,
  ...props
}: Omit<ImageProps, 'src' | 'fallbackSrc' | 'onError'> & { imageId: string; alt: string }) {
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setAttempt(0);
    setFailed(false);
  }, [imageId]);
  useEffect(() => {
    if (!failed || attempt >= RETRY_AFTER_MS.length) return;
    const timer = setTimeout(() => {
      // Offline, the service worker answers from its cache or not at all: wait for the network.
      if (!navigator.onLine) return;
      setFailed(false);
      setAttempt((a) => a + 1);
    }, RETRY_AFTER_MS[attempt]);
    return () => clearTimeout(timer);
  }, [failed, attempt]);
  return (
    <MImage
      // A new element per try: the image keeps its own failed state, and the same src is not asked again.
      key={attempt}
      src={tilesPath(imageId, 'thumbnail.jpg')}
      fallbackSrc={THUMBNAIL_FALLBACK}
      alt={alt}
      onError={() => setFailed(true)}
      {...props}
    />
  );
}
