// Generates a big multi-lab dataset straight into the database through Drizzle: organizations (roots
// with teams), users, scan groups, studies and images, with assignees as the app makes them (creator +
// creator's organization, some sharing across labs) and inheritedAssignees computed with the server's
// own functions (study → its slides → their images). Deterministic for a given seed.
import type { InheritedAssignee } from '../../src/api/entities';
import { SIMPLE_ID_ALPHABET, SIMPLE_ID_LENGTH } from '../../src/api/scan-groups';
import { POLICIES } from '../../src/access/policies';
import type { Db } from '../../src/server/db/client';
import { images, organizations, scanGroups, studies, users } from '../../src/server/db/schema';
import { fromScanGroup, fromStudies } from '../../src/server/scan-groups/inheritance';

export interface LabScale {
  organizations: number;
  scanGroups: number;
  studies: number;
  images: number;
}

export const FULL_SCALE: LabScale = {
  organizations: 50,
  scanGroups: 100_000,
  studies: 20_000,
  images: 200_000,
};

export interface LabData {
  /** Root organizations, each followed by its teams; [0] is the member persona's lab. */
  orgs: Array<{ id: string; rootId: string }>;
  /** Users per organization id. */
  usersByOrg: Map<string, string[]>;
  /** Some simpleIds that exist, for exact and partial searches. */
  sampleSimpleIds: string[];
  /** The span the createdAt values are spread over. */
  from: Date;
  to: Date;
}

const TEAMS_PER_ROOT = 4;
const USERS_PER_ORG = 6;
const DAY = 86_400_000;
const ANIMALS = ['Human', 'Mouse', 'Rat'];
const TAGS = ['he', 'ihc', 'frozen', 'review', 'urgent', 'ffpe', 'her2', 'ki67'];

/** A small seeded PRNG (mulberry32) so two runs insert the same data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Distinct simpleIds: i times an odd constant modulo 32^8 is a bijection, written in the alphabet. */
function simpleIdOf(i: number): string {
  let v = (BigInt(i) * 0x9e3779b1n + 0x1234567n) % 32n ** BigInt(SIMPLE_ID_LENGTH);
  let s = '';
  for (let k = 0; k < SIMPLE_ID_LENGTH; k++) {
    s = SIMPLE_ID_ALPHABET[Number(v % 32n)] + s;
    v /= 32n;
  }
  return s;
}

/** A v4-shaped uuid from the PRNG (crypto.randomUUID is not seedable). */
function uuidFrom(rand: () => number): string {
  const b = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) b[i] = Math.floor(rand() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

async function inBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Inserts the dataset. `onProgress` is told each table as it is done. Users have no password: the
 * bench adds the personas it signs in as itself.
 */
export async function generateLab(
  db: Db,
  scale: LabScale,
  onProgress: (what: string, n: number) => void = () => undefined,
  seed = 42,
): Promise<LabData> {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const to = new Date(Date.UTC(2026, 0, 1));
  const from = new Date(to.getTime() - 730 * DAY);
  const labPolicies = POLICIES.filter((p) => p !== 'superAdmin' && !p.startsWith('platform'));

  // Organizations: roots with TEAMS_PER_ROOT teams each, until `scale.organizations`.
  const orgRows: Array<typeof organizations.$inferInsert> = [];
  while (orgRows.length < scale.organizations) {
    const rootId = uuidFrom(rand);
    orgRows.push({
      id: rootId,
      name: `Bench Lab ${orgRows.length}`,
      rootId,
      parentIds: [],
      availablePolicies: labPolicies,
      enabledPolicies: labPolicies,
    });
    for (let t = 0; t < TEAMS_PER_ROOT && orgRows.length < scale.organizations; t++)
      orgRows.push({
        id: uuidFrom(rand),
        name: `Bench Lab ${orgRows.length} team ${t + 1}`,
        rootId,
        parentId: rootId,
        parentIds: [rootId],
        availablePolicies: labPolicies,
        enabledPolicies: labPolicies,
      });
  }
  await db.insert(organizations).values(orgRows);
  onProgress('organizations', orgRows.length);
  const orgs = orgRows.map((o) => ({ id: o.id!, rootId: o.rootId }));

  const usersByOrg = new Map<string, string[]>();
  const userRows: Array<typeof users.$inferInsert> = [];
  for (const o of orgs) {
    const ids: string[] = [];
    for (let u = 0; u < USERS_PER_ORG; u++) {
      const id = uuidFrom(rand);
      ids.push(id);
      userRows.push({
        id,
        email: `u${userRows.length}@bench-${o.id.slice(0, 8)}.test`,
        name: `User ${userRows.length}`,
        status: 'active',
        organizationId: o.id,
        enabledPolicies: ['manageOrganizationStudies', 'uploadOrganizationImages'],
      });
    }
    usersByOrg.set(o.id, ids);
  }
  await inBatches(userRows, 1000, (b) => db.insert(users).values(b));
  onProgress('users', userRows.length);

  const dateIn = () => new Date(from.getTime() + Math.floor(rand() * (to.getTime() - from.getTime())));
  const otherLabOrg = (org: { rootId: string }) => {
    for (;;) {
      const o = pick(orgs);
      if (o.rootId !== org.rootId) return o;
    }
  };

  // Scan groups: spread over the organizations; the creator and their organization are the assignees
  // (as the create route does), and 5% are also shared with a user or team of another lab.
  type ScanGroupRow = typeof scanGroups.$inferInsert & {
    id: string;
    assigneeUserIds: string[];
    assigneeOrgIds: string[];
  };
  const sgRows: ScanGroupRow[] = [];
  const sgByOrg = new Map<string, number[]>();
  for (let i = 0; i < scale.scanGroups; i++) {
    const org = pick(orgs);
    const creator = pick(usersByOrg.get(org.id)!);
    const createdAt = dateIn();
    const row: ScanGroupRow = {
      id: uuidFrom(rand),
      simpleId: simpleIdOf(i),
      name: rand() < 0.6 ? `Case ${i} block ${1 + Math.floor(rand() * 6)}` : null,
      notes: rand() < 0.2 ? 'Recut requested' : '',
      animal: pick(ANIMALS),
      tags: rand() < 0.3 ? [pick(TAGS)] : [],
      organizationId: org.id,
      creatorUserId: creator,
      assigneeUserIds: [creator],
      assigneeOrgIds: [org.id],
      storageHistory: [{ storageStatus: 'active', timestamp: createdAt.toISOString() }],
      createdAt,
      updatedAt: new Date(createdAt.getTime() + Math.floor(rand() * 30 * DAY)),
    };
    if (rand() < 0.05) {
      const other = otherLabOrg(org);
      if (rand() < 0.5) row.assigneeOrgIds.push(other.id);
      else row.assigneeUserIds.push(pick(usersByOrg.get(other.id)!));
    }
    sgRows.push(row);
    const list = sgByOrg.get(org.id) ?? [];
    list.push(i);
    sgByOrg.set(org.id, list);
  }

  // Studies: 0–10 slides of their own organization; 10% shared with another lab's organization.
  const studyRows: Array<typeof studies.$inferInsert & { id: string; scanGroupIds: string[] }> = [];
  const containing = new Map<
    number,
    Array<{ id: string; assigneeUserIds: string[]; assigneeOrgIds: string[] }>
  >();
  for (let i = 0; i < scale.studies; i++) {
    const org = pick(orgs);
    const creator = pick(usersByOrg.get(org.id)!);
    const createdAt = dateIn();
    const own = sgByOrg.get(org.id) ?? [];
    const picked = new Set<number>();
    const n = Math.floor(rand() * 11);
    for (let k = 0; k < n && own.length; k++) picked.add(pick(own));
    const study = {
      id: uuidFrom(rand),
      name: `Study ${i} ${pick(['HER2', 'Ki-67', 'PD-L1', 'Liver tox', 'Renal', 'Lung'])}`,
      tags: rand() < 0.5 ? [pick(TAGS)] : [],
      scanGroupIds: [...picked].map((k) => sgRows[k].id),
      organizationId: org.id,
      creatorUserId: creator,
      assigneeUserIds: [creator],
      assigneeOrgIds: rand() < 0.1 ? [org.id, otherLabOrg(org).id] : [org.id],
      createdAt,
      updatedAt: new Date(createdAt.getTime() + Math.floor(rand() * 60 * DAY)),
    };
    studyRows.push(study);
    for (const k of picked) {
      const list = containing.get(k) ?? [];
      list.push(study);
      containing.set(k, list);
    }
  }
  for (const [k, list] of containing) sgRows[k].inheritedAssignees = fromStudies(list);

  await inBatches(sgRows, 1000, (b) => db.insert(scanGroups).values(b));
  onProgress('scan groups', sgRows.length);
  await inBatches(studyRows, 1000, (b) => db.insert(studies).values(b));
  onProgress('studies', studyRows.length);

  // Images: spread over the slides (about 2 each), inheriting the slide's assignees.
  const imageRows: Array<typeof images.$inferInsert> = [];
  const flush = async () => {
    if (imageRows.length) await db.insert(images).values(imageRows.splice(0));
  };
  let done = 0;
  for (let i = 0; i < scale.images; i++) {
    const sg = sgRows[Math.floor((i / scale.images) * sgRows.length)];
    imageRows.push({
      id: uuidFrom(rand),
      name: `${sg.simpleId}_${i}.czi`,
      organizationId: sg.organizationId,
      creatorUserId: sg.creatorUserId,
      status: 'completed',
      displayStatus: 'completed',
      scanType: 'brightfield',
      mediaType: 'image/x-czi',
      scanGroupId: sg.id,
      pixelScale: 0.25,
      displayUUIDs: ['rgb'],
      storageKey: `images/${sg.id}/${i}.czi`,
      fileSize: 500_000_000 + Math.floor(rand() * 1e9),
      inheritedAssignees: fromScanGroup({
        id: sg.id,
        assigneeUserIds: sg.assigneeUserIds,
        assigneeOrgIds: sg.assigneeOrgIds,
        inheritedAssignees: (sg.inheritedAssignees ?? []) as InheritedAssignee[],
      }),
      createdAt: sg.createdAt,
    });
    if (imageRows.length === 1000) {
      done += imageRows.length;
      await flush();
    }
  }
  done += imageRows.length;
  await flush();
  onProgress('images', done);

  return {
    orgs,
    usersByOrg,
    sampleSimpleIds: Array.from({ length: 200 }, () => pick(sgRows).simpleId),
    from,
    to,
  };
}
