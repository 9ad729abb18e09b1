// A toast that shows while a change is being sent and then becomes its outcome (§8): loading with no
// time limit at first, then green or red, closing after 5 s like every other toast.
import { notifications } from '@mantine/notifications';

const TOAST_MS = 5000;

/** Shows the loading toast; returns its id for `settleToast`. */
export function showProgressToast(title: string, message = ''): string {
  return notifications.show({ loading: true, title, message, autoClose: false });
}

export function settleToast(id: string, color: 'green' | 'red', title: string, message: string): void {
  notifications.update({ id, loading: false, color, title, message, autoClose: TOAST_MS });
}
