// The report routes of §2.2 and §2.10, built in one place (the dialog, cards and tests use them).

/** §2.2: the QC report's image ids, comma-joined and base64-encoded (URL-safe for the path). */
export function encodeImageIds(ids: readonly string[]): string {
  return encodeURIComponent(btoa(ids.join(',')));
}

/** The inverse of encodeImageIds; bad input gives no ids. */
export function decodeImageIds(encoded: string): string[] {
  try {
    return atob(decodeURIComponent(encoded))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

const seg = encodeURIComponent;

export const reportPaths = {
  slide: (scanGroupId: string) => `/reports/scangroup-report/${seg(scanGroupId)}`,
  label: (scanGroupId: string) => `/reports/label/${seg(scanGroupId)}`,
  study: (studyId: string, numberOfAssays: number) =>
    `/reports/study-report/${seg(studyId)}?numberOfAssays=${numberOfAssays}`,
  qcImages: (imageIds: readonly string[]) => `/reports/quality-check-image-ids/${encodeImageIds(imageIds)}`,
  qcGroup: (reviewGroupId: string) => `/reports/quality-check/${seg(reviewGroupId)}`,
};
