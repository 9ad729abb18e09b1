// Direct file download by URL with progress (§7 "Flows"): ask the API for the image's signed URL,
// stream the file while reporting bytes to the downloads list of the top bar, then hand the blob to
// the browser as a saved file.
import { extractMessage } from '../../api/messages';
import { api } from '../lib/api';
import { upsertDownload } from '../shell/downloads';

export async function downloadImage(image: { id: string; name: string }): Promise<void> {
  const id = `${image.id}:${Date.now()}`;
  upsertDownload({ id, name: image.name, progress: 0 });
  try {
    const { url } = await api<{ url: string }>('GET', `/images/${encodeURIComponent(image.id)}/download-url`);
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok || !res.body) throw new Error(res.statusText || `HTTP ${res.status}`);
    const total = Number(res.headers.get('content-length')) || 0;
    const reader = res.body.getReader();
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      if (total) upsertDownload({ id, name: image.name, progress: Math.min(1, received / total) });
    }
    const blob = new Blob(chunks);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = image.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    upsertDownload({ id, name: image.name, progress: 1 });
  } catch (err) {
    upsertDownload({ id, name: image.name, progress: 0, error: extractMessage(err) });
  }
}
