// The sync markers of a label or order row (docs/offline.md): Pending while its change waits to be
// sent, Not saved (the server's message in a tooltip) when the latest one was refused.
import { Badge, Text, Tooltip } from '@mantine/core';
import { FULL_BADGE, OrdersText } from './texts';

export function SyncBadges({
  row,
  variant,
  pendingHint,
}: {
  row: { $pending?: number; $failed?: string };
  variant: 'light' | 'outline';
  /** A tooltip on Pending, where waiting changes what the user can do (printing a label). */
  pendingHint?: string;
}) {
  const pending = (
    <Badge styles={FULL_BADGE} color="yellow" variant={variant} size="sm">
      {OrdersText.pending}
    </Badge>
  );
  return (
    <>
      {(row.$pending ?? 0) > 0 &&
        (pendingHint ? (
          <Tooltip label={pendingHint} multiline w={260}>
            {pending}
          </Tooltip>
        ) : (
          pending
        ))}
      {row.$failed && (
        <Tooltip label={row.$failed} multiline w={260}>
          <Badge styles={FULL_BADGE} color="red" variant={variant} size="sm">
            {OrdersText.notSaved}
          </Badge>
        </Tooltip>
      )}
    </>
  );
}

/** What a table says in place of its rows when there are none. */
export function EmptyRows({ text }: { text: string }) {
  return (
    <Text c="dimmed" ta="center" py="xl">
      {text}
    </Text>
  );
}
