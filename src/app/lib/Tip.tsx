// Mantine's Tooltip around an element, or the element alone while `bare`: a slide or study card's first
// render leaves its tooltips out (each is a floating-ui setup and a portal) and the list's second
// render, right after the first paint, puts them in (usePaintedOnce).
import type { ReactElement } from 'react';
import { Tooltip, type TooltipProps } from '@mantine/core';

export function Tip({ bare, children, ...props }: TooltipProps & { bare?: boolean; children: ReactElement }) {
  return bare ? children : <Tooltip {...props}>{children}</Tooltip>;
}
