// Form submission state shared by the signed-out pages: busy flag, error text (§8 extraction), done flag.
import { useState } from 'react';
import { extractMessage } from '../../api/messages';

export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      setDone(true);
    } catch (e) {
      setError(extractMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, done, run };
}
