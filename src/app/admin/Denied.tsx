// A control the user may not use: disabled, with the reason and the 'contact your administrator' hint
// in a tooltip (§5, §6.2 "Without permission a control is disabled or shows a tooltip").
import type { ReactElement } from 'react';
import { Stack, Text, Tooltip } from '@mantine/core';
import { Denied } from '../../api/messages';
import { TOOLTIP_DELAY_MS } from './constants';

/** Wraps `children` (already disabled by the caller) in the denial tooltip when `reason` is set. */
export function DeniedTooltip({
  reason,
  children,
  block = false,
}: {
  reason?: string;
  children: ReactElement;
  /** The control fills its row (form fields): keep the wrapper full width. */
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
          <Text size="xs" c="gray.4">
            {Denied.contactAdmin}
          </Text>
        </Stack>
      }
    >
      <span style={{ display: block ? 'block' : 'inline-block' }}>{children}</span>
    </Tooltip>
  );
}
