// The busy and error state of a form's submit: busy while the action runs, and the message of what
// it threw (the server's refusal) kept for the form to show. The form keeps what was typed.
import { useState } from 'react';
import { extractMessage } from '../../api/messages';

export function useSubmit() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  /** Runs `action`; a throw becomes `error` instead of escaping. */
  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(extractMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
