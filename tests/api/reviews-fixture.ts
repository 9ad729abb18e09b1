// A lab for the review, annotation and alignment tests: a root 'Lab' with a team, a second root
// 'Other Lab', signed-in people with the policies each rule needs, and images (one on slide S-1).
import type { FastifyInstance } from 'fastify';
import { POLICIES } from '../../src/access/policies';
import { addOrganization, bearer, insertImageRow, login, memberToken } from './helpers';

export interface Person {
  id: string;
  token: string;
}

export async function reviewLab(app: FastifyInstance) {
  const labPolicies = POLICIES.filter((p) => p !== 'superAdmin' && !p.startsWith('platform'));
  const lab = await addOrganization(app, { name: 'Lab', availablePolicies: labPolicies });
  const team = await addOrganization(app, { name: 'Lab Team', parentId: lab });
  const other = await addOrganization(app, { name: 'Other Lab', availablePolicies: labPolicies });
  const person = async (email: string, organizationId: string, policies: string[] = []): Promise<Person> =>
    memberToken(app, { email, organizationId, policies });
  const people = {
    requester: await person('requester@lab.test', lab, ['manageOrganizationReview']),
    reviewer1: await person('reviewer1@lab.test', lab),
    reviewer2: await person('reviewer2@lab.test', lab),
    qc: await person('qc@lab.test', lab, ['manageOrganizationQC']),
    plain: await person('plain@lab.test', lab),
    annotator: await person('annotator@lab.test', lab, ['manageOrganizationAnnotations']),
    aligner: await person('aligner@lab.test', lab, ['createOrganizationAlignments']),
    teamMember: await person('team@lab.test', team, ['manageOrganizationAnnotations']),
    outsider: await person('outsider@other.test', other, [
      'manageOrganizationReview',
      'manageOrganizationQC',
      'manageOrganizationAnnotations',
      'createOrganizationAlignments',
    ]),
    admin: { id: '', token: (await login(app)).access } as Person,
  };
  const slide = await insertImageRow(app, { organizationId: lab, simpleId: 'S-1' });
  const img2 = await insertImageRow(app, { organizationId: lab, scanGroupId: slide.scanGroupId! });
  const img3 = await insertImageRow(app, { organizationId: lab, simpleId: 'S-2' });
  const otherImg = await insertImageRow(app, { organizationId: other, simpleId: 'O-1' });
  // The team's own image on the lab's slide S-1 (a team does not read its parent's images).
  const teamImg = await insertImageRow(app, { organizationId: team, scanGroupId: slide.scanGroupId! });
  return {
    orgs: { lab, team, other },
    people,
    images: {
      img1: slide.imageId,
      img2: img2.imageId,
      img3: img3.imageId,
      other: otherImg.imageId,
      team: teamImg.imageId,
    },
    slides: { s1: slide.scanGroupId!, s2: img3.scanGroupId!, o1: otherImg.scanGroupId! },
  };
}
export type ReviewLab = Awaited<ReturnType<typeof reviewLab>>;

/** Shorthand for injecting a JSON call as someone. */
export function caller(app: FastifyInstance) {
  return (
    who: Person | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: who ? bearer(who.token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** How many rows a table holds (to prove a refused call wrote nothing). */
export async function rowCount(app: FastifyInstance, table: string): Promise<number> {
  const [row] = await app.ctx.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return Number(row.n);
}
