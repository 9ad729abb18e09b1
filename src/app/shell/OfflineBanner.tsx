// Tells the user they are working offline and that their changes are kept on this device.
import { Alert } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';

export function OfflineBanner() {
  const { online } = useNetwork();
  if (online) return null;
  return (
    <Alert color="yellow" variant="light" radius={0} role="status" title="You are offline">
      Tessera keeps working from this device. Changes you make are saved here and sent when you are back
      online.
    </Alert>
  );
}
