// Denial texts of our own, for checks where the spec gives none (docs/decisions-access.md). The
// spec's own denial texts are in ./messages.ts (Denied).

export const AccessText = {
  /** Fallback for any denied action without a specific text. */
  generic: 'You do not have permission to do this',
  /** Creating an alignment for someone else (the spec has texts for the other kinds only). */
  alignmentsForYourself: 'You can only create alignments for yourself',
} as const;
