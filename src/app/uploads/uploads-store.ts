// The page's side of the uploads: one upload client (worker) per signed-in user, the latest snapshot
// of its records, whether the uploader dialog is open, and the toasts of §4.3. A tiny external store
// (useSyncExternalStore) so the top bar, the dialog and /all-recent-uploads share it.
import { useSyncExternalStore } from 'react';
import { notifications } from '@mantine/notifications';
import { UploadText } from '../../api/messages';
import { api } from '../lib/api';
import {
  createUploadsClient,
  type UploadsClient,
  type UploadEvent,
  type UploadView,
} from '../../workers/uploads';

export type DialogState = 'closed' | 'open' | 'collapsed';

interface State {
  views: UploadView[];
  dialog: DialogState;
  userId?: string;
}

let state: State = { views: [], dialog: 'closed' };
let client: UploadsClient | undefined;
const listeners = new Set<() => void>();
const set = (change: Partial<State>) => {
  state = { ...state, ...change };
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Tests can make the browser "refuse" to keep copies: localStorage 'tessera.uploads.keepFiles' = 'off'. */
const keepFiles = () => {
  try {
    return localStorage.getItem('tessera.uploads.keepFiles') !== 'off';
  } catch {
    return true;
  }
};

function toast(event: UploadEvent) {
  if (event.type === 'success')
    notifications.show({ title: 'Upload Success', message: event.name, color: 'green', autoClose: 5000 });
  else
    notifications.show({
      title: UploadText.labelUnreadable,
      message: event.name,
      color: 'red',
      autoClose: 5000,
    });
}

/** The client of the signed-in user, started on first use; another user's client stops first. */
export function uploadsClient(userId: string): UploadsClient {
  if (!client) {
    client = createUploadsClient(
      {
        onChange: (views) => set({ views }),
        onEvent: toast,
        // Any authenticated call refreshes the session cookie on a 401 (lib/api.ts).
        refreshSession: () =>
          api('GET', '/auth/me').then(
            () => true,
            () => false,
          ),
      },
      { keepFiles: keepFiles() },
    );
  }
  if (state.userId !== userId) {
    set({ userId, views: [] });
    void client.start(userId);
  }
  return client;
}

/** Stops sending at sign-out (records and copies stay for the next sign-in). */
export function stopUploads(): void {
  if (client && state.userId) void client.stop();
  set({ userId: undefined, views: [], dialog: 'closed' });
}

export const useUploadViews = (): UploadView[] => useSyncExternalStore(subscribe, () => state.views);
export const useUploaderDialog = (): DialogState => useSyncExternalStore(subscribe, () => state.dialog);
export const setUploaderDialog = (dialog: DialogState) => set({ dialog });
export const currentClient = (): UploadsClient | undefined => client;
