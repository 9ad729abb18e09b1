// The server reads of the studies' routes, as query options shared by a route's loader and its page.
import type { Study } from '../../api/entities';
import { v2Query } from '../lib/v2-query';

/** One study (/sviewer/{studyId}/{n}: the slides the study viewer steps through). */
export const studyQuery = (studyId: string) => v2Query<Study>(`/studies/${studyId}`);
