// Denial texts of our own, for checks where the spec gives none (docs/decisions-access.md), as the
// access rules name them; the texts are entries of the catalogue (./errors.ts). The spec's own
// denial texts are in ./messages.ts (Denied).
import { errorText } from './errors';

export const AccessText = {
  /** Fallback for any denied action without a specific text. */
  generic: errorText('DENIED'),
  /** Creating an alignment for someone else (the spec has texts for the other kinds only). */
  alignmentsForYourself: errorText('DENIED_ALIGNMENTS_FOR_OTHERS'),
  /** An archived (or archiving, or restoring) slide's image in the viewer: it has no viewer (§4.2). */
  viewActiveImages: errorText('DENIED_INACTIVE_IMAGE_VIEW'),
} as const;
