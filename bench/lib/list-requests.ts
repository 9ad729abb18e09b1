// The list requests the api-lists bench sends, tagged by the filter they exercise, with parameters
// varied over the dataset (organizations the persona may read, 90-day createdAt windows, simpleIds);
// and the candidate indexes `--try-indexes` adds to see what they change.
import type { LabData } from './lab-data';
import { prng } from './lab-data';

/**
 * `newcomer`: a member of a new organization with no slides of its own, to whom three of another
 * lab's slides are assigned (bench/api-lists.ts) — a caller who reads few rows.
 */
export type Persona = 'member' | 'superAdmin' | 'newcomer';
export type Endpoint = 'scan-groups' | 'studies';

const VARIANTS = 50;
const DAY = 86_400_000;

export function listRequests(
  lab: LabData,
  persona: Persona,
  endpoint: Endpoint,
): Array<{ tag: string; path: string }> {
  const rand = prng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  // The member reads their lab (the first root and its teams); the super admin filters on any org.
  const memberOrgs = lab.orgs.filter((o) => o.rootId === lab.orgs[0].id).map((o) => o.id);
  const orgs = persona === 'member' ? memberOrgs : lab.orgs.map((o) => o.id);
  const window = () => {
    const start =
      lab.from.getTime() + Math.floor(rand() * (lab.to.getTime() - lab.from.getTime() - 90 * DAY));
    return {
      createdAtStart: new Date(start).toISOString(),
      createdAtEnd: new Date(start + 90 * DAY).toISOString(),
    };
  };
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const out: Array<{ tag: string; path: string }> = [];
  const base = `/v2/${endpoint}`;
  // The newcomer's lists hold three slides and no study: their first page is all there is.
  if (persona === 'newcomer') return [{ tag: 'default', path: base }];
  for (let i = 0; i < VARIANTS; i++) {
    const simpleId = pick(lab.sampleSimpleIds);
    if (endpoint === 'scan-groups') {
      out.push({ tag: 'default', path: `${base}?page=${1 + (i % 5)}` });
      out.push({
        tag: 'org+dates',
        path: `${base}?${q({
          organizationId: pick(orgs),
          ...window(),
          orderBy: pick(['createdAt', 'simpleId', 'name']),
          orderDirection: pick(['asc', 'desc']),
          limit: '25',
        })}`,
      });
      out.push({ tag: 'search', path: `${base}?${q({ search: simpleId.slice(0, 5) })}` });
      out.push({ tag: 'simpleId', path: `${base}?${q({ simpleId })}` });
    } else {
      out.push({ tag: 'default', path: `${base}?page=${1 + (i % 5)}` });
      out.push({
        tag: 'org+dates',
        path: `${base}?${q({
          organizationId: pick(orgs),
          ...window(),
          orderBy: pick(['createdAt', 'updatedAt', 'name']),
          orderDirection: pick(['asc', 'desc']),
        })}`,
      });
      out.push({ tag: 'slideId', path: `${base}?${q({ slideId: simpleId })}` });
      out.push({ tag: 'name', path: `${base}?${q({ name: pick(['HER2', 'Ki-67', 'Lung']) })}` });
    }
  }
  return out;
}

/**
 * Indexes tried by `--try-indexes` (bench database only). The ordering ones that helped are in the
 * schema now (migration 0006_bench_indexes); these serve the proposed read-scope SQL and filters. The list
 * SQL orders by `<column> <dir> NULLS LAST, id <dir>`, which only an index declared in that order can
 * serve (PostgreSQL does not use NOT NULL to match a plain index scanned backwards).
 */
export const CANDIDATE_INDEXES = [
  'CREATE INDEX bench_sg_org_text ON scan_groups ((organization_id::text))',
  'CREATE INDEX bench_sg_creator ON scan_groups (creator_user_id)',
  'CREATE INDEX bench_sg_users ON scan_groups USING gin (assignee_user_ids)',
  'CREATE INDEX bench_sg_orgs ON scan_groups USING gin (assignee_org_ids)',
  'CREATE INDEX bench_sg_inherited ON scan_groups USING gin (inherited_assignees jsonb_path_ops)',
  'CREATE INDEX bench_st_created_desc ON studies (created_at DESC NULLS LAST, id DESC)',
  'CREATE INDEX bench_st_org_text ON studies ((organization_id::text))',
  'CREATE INDEX bench_st_creator ON studies (creator_user_id)',
  'CREATE INDEX bench_st_users ON studies USING gin (assignee_user_ids)',
  'CREATE INDEX bench_st_orgs ON studies USING gin (assignee_org_ids)',
  'CREATE INDEX bench_st_inherited ON studies USING gin (inherited_assignees jsonb_path_ops)',
  'CREATE INDEX bench_st_slides ON studies USING gin (scan_group_ids)',
];
