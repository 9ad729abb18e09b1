// Downloads of this session (direct file downloads with progress, spec §7 "Flows"): a tiny store the
// download actions write to and the top-bar popup reads.
import { useSyncExternalStore } from 'react';

export interface DownloadEntry {
  id: string;
  name: string;
  /** 0 to 1 */
  progress: number;
  error?: string;
}

let entries: DownloadEntry[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function upsertDownload(entry: DownloadEntry): void {
  entries = [entry, ...entries.filter((e) => e.id !== entry.id)];
  emit();
}

export function useDownloads(): DownloadEntry[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => entries,
  );
}
