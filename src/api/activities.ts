// Requests of /v2/activities (spec §3 Activity, §7): the feeds of the dashboard — one's own, the
// organization's, and collaborators' (others' actions on rows the caller can read).
import { z } from 'zod';
import { Id } from './common';
import { isoDateParam, pageParams, repeated } from './lists';

export const ActivityListQuery = z.object({
  ...pageParams(100, 25),
  orderBy: z.enum(['date']).default('date'),
  organizationId: repeated(Id),
  creatorUserId: repeated(Id),
  /** true: what others did to studies, slides, images, orders and reviews the caller can read. */
  collaborator: z.stringbool({ error: 'must be true or false' }).optional(),
  reference: repeated(z.string().max(50)),
  referenceId: repeated(Id),
  actionType: repeated(z.string().max(30)),
  dateStart: isoDateParam.optional(),
  dateEnd: isoDateParam.optional(),
});
export type ActivityListQuery = z.input<typeof ActivityListQuery>;
