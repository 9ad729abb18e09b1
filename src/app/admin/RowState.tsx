// The sync markers of a row with local changes (docs/offline.md): Pending while an edit waits to be
// sent, Not saved with the server's message when the latest one was refused.
import { Alert, Badge } from '@mantine/core';

export function RowBadge({ row }: { row: { $pending?: number; $failed?: string } }) {
  if (row.$failed)
    return (
      <Badge color="red" variant="light" tt="none" title={row.$failed}>
        Not saved
      </Badge>
    );
  if (row.$pending)
    return (
      <Badge color="yellow" variant="light" tt="none">
        Pending
      </Badge>
    );
  return null;
}

export function FailedAlert({ row }: { row: { $failed?: string } }) {
  if (!row.$failed) return null;
  return (
    <Alert color="red" variant="light" title="Not saved" role="alert">
      {row.$failed}
    </Alert>
  );
}
