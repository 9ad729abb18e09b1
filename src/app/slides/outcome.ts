// The §8 toasts of a change that goes through the outbox: the pending text at once, then the success
// or failure text once the server answered. Offline (or when the answer takes long) the change stays
// queued and the toast says it was saved on this device; the card shows it as Pending meanwhile.
import { notifications } from '@mantine/notifications';
import { extractMessage } from '../../api/messages';
import type { OutboxEntry } from '../../local/db';
import { localDb } from '../../local/db';
import { whenSettled } from '../../local/outbox';
import { SAVED_OFFLINE } from '../studies/NewStudyModal';

/** How long a toast waits for the server before treating the change as queued. */
const ANSWER_WAIT_MS = 8_000;

export interface OutcomeTexts {
  pending: string;
  success: string;
  successText?: string;
  failure: string;
  /** What the toast says while the change waits on this device (default SAVED_OFFLINE). */
  queuedText?: string;
}

export type Outcome = 'sent' | 'queued' | 'failed';

/**
 * Runs `send` (which queues one or more outbox entries) with the toasts of `texts`. Resolves to what
 * happened to the last entry: 'sent', 'queued' (offline or slow), or 'failed' (the server refused;
 * the outbox has already rolled the change back and the card shows 'Not saved').
 */
export async function withOutcome(
  texts: OutcomeTexts,
  send: () => Promise<OutboxEntry | OutboxEntry[]>,
): Promise<Outcome> {
  const toast = notifications.show({ loading: true, title: texts.pending, message: '', autoClose: false });
  const finish = (color: string, title: string, message: string) =>
    notifications.update({ id: toast, loading: false, color, title, message, autoClose: 5000 });
  try {
    const sent = await send();
    const entries = Array.isArray(sent) ? sent : [sent];
    let result: Outcome = 'sent';
    for (const entry of entries) {
      const outcome = navigator.onLine
        ? await whenSettled(localDb(), entry.id, ANSWER_WAIT_MS)
        : { state: 'pending' as const };
      if (outcome.state === 'failed') {
        finish('red', texts.failure, outcome.message);
        return 'failed';
      }
      if (outcome.state === 'pending') result = 'queued';
    }
    if (result === 'queued') finish('yellow', texts.success, texts.queuedText ?? SAVED_OFFLINE);
    else finish('green', texts.success, texts.successText ?? '');
    return result;
  } catch (err) {
    finish('red', texts.failure, extractMessage(err));
    return 'failed';
  }
}
