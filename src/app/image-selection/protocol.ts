// The slide selection popup's window messages (§2.8), checked on both ends. The popup says
// ready-slide-select; the opener answers start-slide-select with the current selection and the
// scan group ids that may be chosen; slide-select reports each change; done-slides hands over the
// final selection and the popup closes. Only messages from our own origin are taken.
import { z } from 'zod';

const Ids = z.array(z.string().max(100)).max(5000);

export const SelectionMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready-slide-select') }),
  z.object({
    type: z.literal('start-slide-select'),
    selection: Ids,
    /** Absent: every readable slide may be chosen. */
    selectableIds: Ids.optional(),
  }),
  z.object({ type: z.literal('slide-select'), selection: Ids }),
  z.object({ type: z.literal('done-slides'), selection: Ids }),
]);
export type SelectionMessage = z.infer<typeof SelectionMessage>;

/** §2.8 / §9: the popup's size and how often the opener checks that it is still open. */
export const POPUP_WIDTH = 1400;
export const POPUP_HEIGHT = 800;
export const POPUP_CHECK_MS = 100;

export function readMessage(event: MessageEvent): SelectionMessage | undefined {
  if (event.origin !== window.location.origin) return undefined;
  const parsed = SelectionMessage.safeParse(event.data);
  return parsed.success ? parsed.data : undefined;
}
