// Saving an organization or user edit through the outbox (src/local): shown at once, marked pending,
// sent when the server can be reached; a refusal rolls it back and the row carries the message.
import { notifications } from '@mantine/notifications';
import { AdminText, extractMessage } from '../../api/messages';
import type { SyncKind } from '../../api/sync';
import type { SetChanges } from '../../local/outbox';
import { TOAST_MS } from './constants';

/** The add/remove operations that turn `before` into `after`. */
export function setDiff(before: readonly string[], after: readonly string[]) {
  return {
    add: after.filter((p) => !before.includes(p)),
    remove: before.filter((p) => !after.includes(p)),
  };
}

export async function saveEdit(
  update: (kind: SyncKind, id: string, changes: SetChanges) => Promise<unknown>,
  kind: SyncKind,
  id: string,
  changes: SetChanges,
): Promise<boolean> {
  try {
    await update(kind, id, changes);
    notifications.show({
      color: 'green',
      message: navigator.onLine ? AdminText.saved : AdminText.savedOffline,
      autoClose: TOAST_MS,
    });
    return true;
  } catch (error) {
    notifications.show({ color: 'red', message: extractMessage(error), autoClose: TOAST_MS });
    return false;
  }
}
