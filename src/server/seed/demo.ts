// The demo seed: a realistic lab to click through — 'Northside Pathology Lab' with two teams, a user
// per role with known demo passwords, organs for human and mouse, predictors and pipelines.
//
// The seed is a list of steps sharing one context (DEMO_STEPS), run in one transaction: add a step
// for slides, studies or reviews by appending to the list; a step reads what earlier ones made from
// the context (ctx.orgs, ctx.users, ctx.organs, ...). It runs once per database: the `settings` row
// 'demo-seeded' is its lock, as bootstrap's is.
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations, organs, pipelines, predictors, settings, users } from '../db/schema';
import { hashPassword } from '../auth/passwords';
import { DEFAULT_ROOT_POLICIES } from '../organizations/repository';
import { DEMO_ORGANIZATION, type DemoLabResult } from '../../api/first-run';

export { DEMO_ORGANIZATION };

export interface DemoUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: string;
}

export interface SeedContext {
  db: Db;
  orgs: Record<string, string>;
  users: Record<string, DemoUser>;
  organs: Record<string, string>;
  predictors: Record<string, string>;
  pipelines: Record<string, string>;
}

export interface SeedStep {
  name: string;
  run(ctx: SeedContext): Promise<void>;
}

const id = () => crypto.randomUUID();

const organizationsStep: SeedStep = {
  name: 'organizations',
  async run(ctx) {
    const lab = id();
    const teams = { lab, histology: id(), research: id() };
    await ctx.db.insert(organizations).values([
      {
        id: lab,
        name: DEMO_ORGANIZATION,
        rootId: lab,
        parentIds: [],
        availablePolicies: DEFAULT_ROOT_POLICIES,
        enabledPolicies: DEFAULT_ROOT_POLICIES,
        info: {
          address: '120 Harbour Road',
          city: 'Northside',
          country: 'United Kingdom',
          phone: '+44 20 7946 0000',
        },
        scanGroupSettings: { maxDefaultActiveExpiryDays: 365, defaultActiveExpiryDays: 90 },
        userLimit: 50,
      },
      ...[
        { key: 'histology', name: 'Histology Core' },
        { key: 'research', name: 'Research Imaging' },
      ].map((t) => ({
        id: teams[t.key as 'histology' | 'research'],
        name: t.name,
        rootId: lab,
        parentId: lab,
        parentIds: [lab],
        availablePolicies: DEFAULT_ROOT_POLICIES,
        enabledPolicies: DEFAULT_ROOT_POLICIES,
        scanGroupSettings: { maxDefaultActiveExpiryDays: 365, defaultActiveExpiryDays: 60 },
        userLimit: 20,
      })),
    ]);
    Object.assign(ctx.orgs, teams);
    const [platform] = await ctx.db.select().from(organizations).where(eq(organizations.isPlatform, 1));
    if (platform) ctx.orgs.platform = platform.id;
  },
};

/** One user per role; the password is the role's, known, and printed by the seed script. */
const ROLES: Array<{ key: string; role: string; name: string; org: string; policies: string[] }> = [
  {
    key: 'admin',
    role: 'Lab administrator',
    name: 'Alice Moreno',
    org: 'lab',
    policies: DEFAULT_ROOT_POLICIES,
  },
  {
    key: 'technician',
    role: 'Histotechnician (Histology Core)',
    name: 'Ben Okafor',
    org: 'histology',
    policies: [
      'createOrganizationLabels',
      'createOrganizationOrders',
      'uploadOrganizationImages',
      'manageOrganizationSlides',
      'manageOrganizationArchivals',
      'createOrganizationAlignments',
    ],
  },
  {
    key: 'pathologist',
    role: 'Pathologist (Research Imaging)',
    name: 'Chiara Rossi',
    org: 'research',
    policies: [
      'manageOrganizationStudies',
      'manageOrganizationReview',
      'manageOrganizationAnnotations',
      'manageOrganizationSlides',
    ],
  },
  {
    key: 'qc',
    role: 'QC reviewer',
    name: 'Dev Patel',
    org: 'lab',
    policies: ['manageOrganizationQC', 'manageOrganizationReview', 'manageOrganizationAnnotations'],
  },
  {
    key: 'teamLead',
    role: 'Team lead (Histology Core)',
    name: 'Erin Walsh',
    org: 'histology',
    policies: [
      'modifyOrganization',
      'createOrganizationUsers',
      'modifyOrganizationUsers',
      'createOrganizationOrders',
    ],
  },
  {
    key: 'platform',
    role: 'Platform manager',
    name: 'Femi Adeyemi',
    org: 'platform',
    policies: [
      'platformOrganizationManagement',
      'platformUserManagement',
      'platformScanManagement',
      'platformExperimentManagement',
    ],
  },
];

const usersStep: SeedStep = {
  name: 'users',
  async run(ctx) {
    for (const r of ROLES) {
      const organizationId = ctx.orgs[r.org];
      if (!organizationId) continue; // no platform organization yet: no platform manager
      const user: DemoUser = {
        id: id(),
        email: `${r.key.toLowerCase()}@northside.demo`,
        password: `northside-${r.key.toLowerCase()}`,
        name: r.name,
        role: r.role,
      };
      await ctx.db.insert(users).values({
        id: user.id,
        email: user.email,
        name: user.name,
        passwordHash: await hashPassword(user.password),
        status: 'active',
        organizationId,
        enabledPolicies: r.policies,
      });
      ctx.users[r.key] = user;
    }
    await ctx.db
      .update(organizations)
      .set({ adminUserId: ctx.users.admin.id, creatorUserId: ctx.users.admin.id })
      .where(eq(organizations.rootId, ctx.orgs.lab));
  },
};

const ORGANS: Record<string, string[]> = {
  human: ['Liver', 'Kidney', 'Lung', 'Breast', 'Colon', 'Prostate', 'Skin', 'Brain'],
  mouse: ['Liver', 'Kidney', 'Lung', 'Brain', 'Heart', 'Spleen'],
};

const organsStep: SeedStep = {
  name: 'organs',
  async run(ctx) {
    // The default catalogue of a first start holds most of these already (names and animals
    // compare without regard to case): the demo uses those rows rather than adding twins.
    const existing = new Map(
      (await ctx.db.select().from(organs)).map((o) => [`${o.animal}:${o.name}`.toLowerCase(), o.id]),
    );
    const rows = Object.entries(ORGANS).flatMap(([animal, names]) =>
      names
        .filter((name) => !existing.has(`${animal}:${name}`.toLowerCase()))
        .map((name) => ({ id: id(), name, animal, createdBy: ctx.users.platform?.id ?? null })),
    );
    if (rows.length > 0) await ctx.db.insert(organs).values(rows);
    for (const r of rows) existing.set(`${r.animal}:${r.name}`.toLowerCase(), r.id);
    for (const [animal, names] of Object.entries(ORGANS))
      for (const name of names)
        ctx.organs[`${animal}:${name}`] = existing.get(`${animal}:${name}`.toLowerCase())!;
  },
};

const predictorsStep: SeedStep = {
  name: 'predictors',
  async run(ctx) {
    const common = {
      version: '1.0',
      status: 'active',
      mediaType: 'image/tiff',
      inputPixelScale: 0.25,
      outputPixelScale: 0.25,
      outputTileShape: [512, 512],
      outputTileOverlap: 32,
      inputDataType: 'uint16',
      outputDataType: 'uint8',
      creatorUserId: ctx.users.platform?.id ?? null,
    };
    const list = [
      {
        key: 'he',
        name: 'virtual-he',
        title: 'Virtual H&E',
        organ: 'human:Liver',
        scanType: 'autofluorescence',
        out: ['Hematoxylin', 'Eosin'],
      },
      {
        key: 'ki67',
        name: 'ki67-index',
        title: 'Ki-67 Proliferation Index',
        organ: 'human:Breast',
        scanType: 'brightfield',
        out: ['Ki-67'],
      },
      {
        key: 'cd3',
        name: 'cd3-tcells',
        title: 'CD3 T-cell Detection',
        organ: 'human:Colon',
        scanType: 'brightfield',
        out: ['CD3'],
      },
      {
        key: 'pdl1',
        name: 'pdl1-tps',
        title: 'PD-L1 Tumour Proportion Score',
        organ: 'human:Lung',
        scanType: 'brightfield',
        out: ['PD-L1'],
      },
      {
        key: 'dapi',
        name: 'dapi-nuclei',
        title: 'DAPI Nuclear Segmentation',
        organ: 'mouse:Kidney',
        scanType: 'autofluorescence',
        out: ['Nuclei'],
      },
    ];
    for (const p of list) {
      const predictorId = id();
      await ctx.db.insert(predictors).values({
        ...common,
        id: predictorId,
        name: p.name,
        title: p.title,
        organId: ctx.organs[p.organ],
        scanType: p.scanType,
        uuid: id(),
        inputChannels:
          p.scanType === 'autofluorescence' ? [{ name: 'DAPI' }, { name: 'FITC' }] : [{ name: 'RGB' }],
        outputChannels: p.out.map((name) => ({ name })),
        defaultViewerSettings: { exposure: 1, gamma: 1 },
      });
      ctx.predictors[p.key] = predictorId;
    }
  },
};

const pipelinesStep: SeedStep = {
  name: 'pipelines',
  async run(ctx) {
    const list = [
      { key: 'virtualHe', name: 'Virtual H&E (liver)', organ: 'human:Liver', predictors: ['he'] },
      {
        key: 'ihc',
        name: 'IHC panel (Ki-67, CD3, PD-L1)',
        organ: 'human:Breast',
        predictors: ['ki67', 'cd3', 'pdl1'],
      },
      { key: 'mouseKidney', name: 'Mouse kidney fluorescence', organ: 'mouse:Kidney', predictors: ['dapi'] },
    ];
    for (const p of list) {
      const pipelineId = id();
      await ctx.db.insert(pipelines).values({
        id: pipelineId,
        name: p.name,
        organId: ctx.organs[p.organ],
        predictorIds: p.predictors.map((k) => ctx.predictors[k]),
        assigneeOrgIds: [ctx.orgs.lab],
        creatorUserId: ctx.users.platform?.id ?? null,
      });
      ctx.pipelines[p.key] = pipelineId;
    }
  },
};

/** In order; later areas append their steps (slides, studies, reviews) here. */
export const DEMO_STEPS: SeedStep[] = [
  organizationsStep,
  usersStep,
  organsStep,
  predictorsStep,
  pipelinesStep,
];

/**
 * Seeds the demo once per database. Returns what it made (with the demo passwords), or undefined
 * when the database was seeded before. Run bootstrap first so that the platform manager has a home.
 */
export async function seedDemo(
  db: Db,
  steps: readonly SeedStep[] = DEMO_STEPS,
): Promise<SeedContext | undefined> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: 'demo-seeded', value: new Date().toISOString() })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) return undefined;
    const ctx: SeedContext = { db: tx, orgs: {}, users: {}, organs: {}, predictors: {}, pipelines: {} };
    for (const step of steps) await step.run(ctx);
    return ctx;
  });
}

/** What the seed made, as the demo-lab call answers it and the start-up prints it. */
export function demoSummary(ctx: SeedContext): DemoLabResult {
  return {
    organization: DEMO_ORGANIZATION,
    organs: Object.keys(ctx.organs).length,
    pipelines: Object.keys(ctx.pipelines).length,
    users: Object.values(ctx.users).map(({ role, email, password }) => ({ role, email, password })),
  };
}

/** The lines printed after a seed: counts, then one sign-in per role. */
export function demoSummaryLines(summary: DemoLabResult): string[] {
  return [
    `Seeded ${summary.organization}: ${summary.organs} organs, ${summary.pipelines} pipelines.`,
    'Demo sign-ins (role, e-mail, password):',
    ...summary.users.map((u) => `  ${u.role.padEnd(34)} ${u.email.padEnd(28)} ${u.password}`),
  ];
}
