// Why a failed order failed, in words, from what the local store holds of its slide's images: the
// server fails an order when one of its slide's images failed or was rejected (src/server/orders/
// follow.ts), and the image keeps the reason (info.rejection, or the reader's message in info.desc).
import type { Image } from '../../api/entities';
import { OrdersText } from './texts';

type ImageFacts = Pick<Image, 'name' | 'status' | 'info'>;

export function failureReason(images: readonly ImageFacts[]): string {
  const bad = images.find((i) => i.status === 'rejected') ?? images.find((i) => i.status === 'failed');
  if (!bad) return OrdersText.failedUnknown;
  if (bad.status === 'rejected') return OrdersText.scanRejected(bad.name, bad.info?.rejection);
  return OrdersText.scanFailed(bad.name, bad.info?.desc);
}
