// Label files for Zebra printers: the server renders each label's ZPL (src/server/labels/zpl.ts, a
// DataMatrix of the simpleId); one file holds any number of labels (ZPL formats simply follow each
// other), saved through a download link. Only labels the server knows have a printable id.
import { api } from '../lib/api';

export interface Printable {
  id: string;
  simpleId: string;
}

/** The ZPL of these labels, in order, as one text. Throws ApiError/NetworkError like any call. */
export async function fetchZpl(labels: readonly Printable[]): Promise<string> {
  const parts = await Promise.all(
    labels.map((l) => api<string>('GET', `/scan-groups/${encodeURIComponent(l.id)}/label.zpl`)),
  );
  return parts.join('');
}

export const zplFileName = (labels: readonly Printable[]) =>
  labels.length === 1
    ? `label-${labels[0].simpleId}.zpl`
    : `labels-${labels
        .map((l) => l.simpleId)
        .join('-')
        .slice(0, 80)}.zpl`;

/** Downloads the labels' ZPL as one file. Side effect: a file download in the browser. */
export async function downloadZpl(labels: readonly Printable[]): Promise<void> {
  const text = await fetchZpl(labels);
  const url = URL.createObjectURL(new Blob([text], { type: 'application/zpl' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = zplFileName(labels);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The printable layout of these labels (the label report, §2.10), in a new tab. */
export const labelReportPath = (labels: readonly Printable[]) =>
  `/reports/label/${labels.map((l) => encodeURIComponent(l.id)).join(',')}`;
