// Keeps the uploads going while someone is signed in: starts the upload worker for the user (which
// resumes unfinished uploads by itself), wakes it when the network returns, warns before leaving the
// page while bytes are still to send (§2.6), and renders the uploader. Mounted once, in the top bar.
import { useEffect } from 'react';
import { isSending } from '../../api/uploads';
import { useMe } from '../session/session-context';
import { UploaderDialog } from './UploaderDialog';
import { stopUploads, uploadsClient, useUploadViews } from './uploads-store';

export function UploadsRuntime() {
  const me = useMe();
  const userId = me.user.id;
  const views = useUploadViews();
  const busy = views.some((v) => isSending(v.status) && !v.needsFile);

  useEffect(() => {
    const client = uploadsClient(userId);
    const wake = () => void client.wake();
    window.addEventListener('online', wake);
    return () => {
      window.removeEventListener('online', wake);
    };
  }, [userId]);

  // Sign-out unmounts the signed-in shell: stop sending (records stay for the next sign-in).
  useEffect(() => () => stopUploads(), []);

  useEffect(() => {
    if (!busy) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  return <UploaderDialog />;
}
