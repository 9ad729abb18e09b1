// A control the user may not use: disabled, with the reason and the 'contact your administrator' hint
// in a tooltip (§5, §6.2 "Without permission a control is disabled or shows a tooltip"). Every screen
// uses this one, so a denied control reads the same everywhere.
import type { ReactElement } from 'react';
import { Stack, Text, Tooltip } from '@mantine/core';
import { Denied } from '../../api/messages';

/** §9 "tooltip delay 300 ms". */
export const TOOLTIP_DELAY_MS = 300;

/**
 * Wraps `children` (already disabled by the caller) in the denial tooltip when `reason` is set. A
 * disabled button gets no pointer events, so the tooltip sits on a wrapper around it.
 */
export function DeniedTooltip({
  reason,
  hint = Denied.contactAdmin,
  children,
  block = false,
}: {
  reason?: string;
  /** The line under the reason: whom to ask; null for none. */
  hint?: string | null;
  children: ReactElement;
  /** The control fills its row (form fields, menu items): keep the wrapper full width. */
  block?: boolean;
}) {
  if (!reason) return children;
  return (
    <Tooltip
      openDelay={TOOLTIP_DELAY_MS}
      multiline
      w={260}
      label={
        <Stack gap={2}>
          <Text size="sm">{reason}</Text>
          {hint && (
            <Text size="xs" c="gray.4">
              {hint}
            </Text>
          )}
        </Stack>
      }
    >
      <span style={{ display: block ? 'block' : 'inline-block' }}>{children}</span>
    </Tooltip>
  );
}
