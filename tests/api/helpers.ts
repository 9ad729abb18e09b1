// Test harness for the API: builds the real app on a real database — in-memory PGlite always, and a
// fresh PostgreSQL database when 127.0.0.1:5432 answers — and signs users in through HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { loadConfig, type Config } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';
import { pgliteTemplate, postgresTemplate } from './template-databases';

export const ADMIN = { email: 'admin@lab.test', password: 'correct horse battery' };
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let pgAnswers: Promise<boolean> | undefined;
async function postgresAvailable(): Promise<boolean> {
  pgAnswers ??= (async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 1500 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return pgAnswers;
}

export interface DbTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<Database & { drop(): Promise<void> }>;
}

/** The databases to run a suite on: PGlite, plus PostgreSQL where the local server answers. */
export async function dbTargets(): Promise<DbTarget[]> {
  const targets: DbTarget[] = [
    {
      name: 'pglite',
      open: async () => {
        const db = await openDatabase('memory://', { pgliteDump: await pgliteTemplate() });
        return Object.assign(db, { drop: async () => undefined });
      },
    },
  ];
  if (await postgresAvailable())
    targets.push({
      name: 'postgres',
      open: async () => {
        const dbName = `tessera_t_${crypto.randomBytes(6).toString('hex')}`;
        const template = await postgresTemplate(PG_ADMIN_URL);
        const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${template}`);
        await admin.end();
        const url = new URL(PG_ADMIN_URL);
        url.pathname = `/${dbName}`;
        const db = await openDatabase(url.toString());
        return Object.assign(db, {
          drop: async () => {
            const c = new pg.Client({ connectionString: PG_ADMIN_URL });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
            await c.end();
          },
        });
      },
    });
  return targets;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

export async function startApp(target: DbTarget, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist'), ...env });
  const database = await target.open();
  const app = await buildApp({ config, database });
  await bootstrap(app.ctx.db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  await app.ready();
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function login(app: FastifyInstance, email = ADMIN.email, password = ADMIN.password) {
  const res = await app.inject({ method: 'POST', url: '/v2/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { accessToken: { token: string }; refreshToken: { token: string } };
  return { access: body.accessToken.token, refresh: body.refreshToken.token, res };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The newest .eml written to DATA_DIR/mail, as text. */
export function lastMail(dataDir: string): string | undefined {
  const dir = path.join(dataDir, 'mail');
  if (!fs.existsSync(dir)) return undefined;
  const files = fs.readdirSync(dir).sort();
  return files.length ? fs.readFileSync(path.join(dir, files[files.length - 1]), 'utf8') : undefined;
}

/** Adds a user to the admin's organization straight in the database. */
export async function addUser(
  app: FastifyInstance,
  opts: { email: string; password?: string; status?: string; policies?: string[] },
): Promise<string> {
  const { users, organizations } = await import('../../src/server/db/schema');
  const { hashPassword } = await import('../../src/server/auth/passwords');
  const [org] = await app.ctx.db.select().from(organizations);
  const id = crypto.randomUUID();
  await app.ctx.db.insert(users).values({
    id,
    email: opts.email,
    name: opts.email.split('@')[0],
    passwordHash: opts.password ? await hashPassword(opts.password) : null,
    status: opts.status ?? 'active',
    organizationId: org.id,
    enabledPolicies: opts.policies ?? [],
  });
  return id;
}

/**
 * Adds an organization straight in the database: a root when no parent is given, else a team under
 * it with rootId/parentIds filled in. Policies default to the parent's (all 24 for a root), all enabled.
 */
export async function addOrganization(
  app: FastifyInstance,
  opts: {
    name: string;
    parentId?: string;
    availablePolicies?: string[];
    enabledPolicies?: string[];
    userLimit?: number | null;
    isPlatform?: boolean;
  },
): Promise<string> {
  const { organizations } = await import('../../src/server/db/schema');
  const { POLICIES } = await import('../../src/access/policies');
  const { eq } = await import('drizzle-orm');
  const id = crypto.randomUUID();
  const [parent] = opts.parentId
    ? await app.ctx.db.select().from(organizations).where(eq(organizations.id, opts.parentId))
    : [];
  const available = opts.availablePolicies ?? parent?.availablePolicies ?? [...POLICIES];
  await app.ctx.db.insert(organizations).values({
    id,
    name: opts.name,
    rootId: parent?.rootId ?? id,
    parentId: parent?.id ?? null,
    parentIds: parent ? [...parent.parentIds, parent.id] : [],
    availablePolicies: available,
    enabledPolicies: opts.enabledPolicies ?? available,
    userLimit: opts.userLimit ?? null,
    isPlatform: opts.isPlatform ? 1 : 0,
  });
  return id;
}

/** Adds an active user to a given organization straight in the database. */
export async function addMember(
  app: FastifyInstance,
  opts: { email: string; organizationId: string; password?: string; policies?: string[]; status?: string },
): Promise<string> {
  const { users } = await import('../../src/server/db/schema');
  const { hashPassword } = await import('../../src/server/auth/passwords');
  const id = crypto.randomUUID();
  await app.ctx.db.insert(users).values({
    id,
    email: opts.email,
    name: opts.email.split('@')[0],
    passwordHash: opts.password ? await hashPassword(opts.password) : null,
    status: opts.status ?? 'active',
    organizationId: opts.organizationId,
    enabledPolicies: opts.policies ?? [],
  });
  return id;
}

/** Adds a member and signs them in: their access token. */
export async function memberToken(
  app: FastifyInstance,
  opts: { email: string; organizationId: string; policies?: string[] },
): Promise<{ id: string; token: string }> {
  const password = 'member-password-1';
  const id = await addMember(app, { ...opts, password });
  return { id, token: (await login(app, opts.email, password)).access };
}

export const ORG_ADMIN_POLICIES = [
  'createTeams',
  'modifyTeams',
  'modifyOrganization',
  'createOrganizationUsers',
  'createTeamUsers',
  'modifyOrganizationUsers',
  'modifyTeamUsers',
  'deleteOrganizationUsers',
  'deleteTeamUsers',
  'createOrganizationOrders',
  'createOrganizationLabels',
];
export const PLATFORM_POLICIES = [
  'platformOrganizationManagement',
  'platformUserManagement',
  'platformScanManagement',
  'platformExperimentManagement',
];

export interface Persona {
  id: string;
  token: string;
  organizationId: string;
}

/**
 * A lab to test permissions against: 'Lab' (a root without the platform policies) with teams A (and
 * its sub-team) and B, a second root 'Other Lab', and signed-in personas: the bootstrap super admin,
 * a platform manager, the lab's administrator, a member of team A, a QC reviewer of the lab, and an
 * outsider holding the administrator's policies in the other lab.
 */
export async function addLabFixture(app: FastifyInstance) {
  const { organizations, users } = await import('../../src/server/db/schema');
  const { eq } = await import('drizzle-orm');
  const [platform] = await app.ctx.db.select().from(organizations).where(eq(organizations.isPlatform, 1));
  const { POLICIES } = await import('../../src/access/policies');
  const labPolicies = POLICIES.filter((p) => p !== 'superAdmin' && !p.startsWith('platform'));
  const lab = await addOrganization(app, { name: 'Lab', availablePolicies: labPolicies });
  const teamA = await addOrganization(app, { name: 'Team A', parentId: lab });
  const subTeam = await addOrganization(app, { name: 'Team A1', parentId: teamA });
  const teamB = await addOrganization(app, { name: 'Team B', parentId: lab });
  const other = await addOrganization(app, { name: 'Other Lab', availablePolicies: labPolicies });
  const persona = async (email: string, organizationId: string, policies: string[]): Promise<Persona> => ({
    ...(await memberToken(app, { email, organizationId, policies })),
    organizationId,
  });
  const admin = await login(app);
  const [adminUser] = await app.ctx.db.select().from(users).where(eq(users.email, ADMIN.email));
  return {
    orgs: { platform: platform.id, lab, teamA, subTeam, teamB, other },
    superAdmin: { id: adminUser.id, token: admin.access, organizationId: platform.id } as Persona,
    platform: await persona('platform@lab.test', platform.id, PLATFORM_POLICIES),
    orgAdmin: await persona('orgadmin@lab.test', lab, ORG_ADMIN_POLICIES),
    member: await persona('member@lab.test', teamA, [
      'createOrganizationLabels',
      'createOrganizationOrders',
      'uploadOrganizationImages',
      'manageOrganizationStudies',
    ]),
    qc: await persona('qc@lab.test', lab, ['manageOrganizationQC', 'manageOrganizationReview']),
    outsider: await persona('outsider@other.test', other, ORG_ADMIN_POLICIES),
  };
}
export type LabFixture = Awaited<ReturnType<typeof addLabFixture>>;

/**
 * Inserts an image row straight in the database (until images are created through the API), with
 * an optional slide: `simpleId` makes a scan group for it. Returns the image id (and the slide's).
 */
export async function insertImageRow(
  app: FastifyInstance,
  opts: {
    organizationId: string;
    creatorUserId?: string | null;
    simpleId?: string;
    scanGroupId?: string;
    status?: string;
    name?: string;
  },
): Promise<{ imageId: string; scanGroupId: string | null }> {
  const { images, scanGroups } = await import('../../src/server/db/schema');
  let scanGroupId = opts.scanGroupId ?? null;
  if (!scanGroupId && opts.simpleId) {
    scanGroupId = crypto.randomUUID();
    await app.ctx.db.insert(scanGroups).values({
      id: scanGroupId,
      simpleId: opts.simpleId,
      organizationId: opts.organizationId,
      creatorUserId: opts.creatorUserId ?? null,
    });
  }
  const imageId = crypto.randomUUID();
  await app.ctx.db.insert(images).values({
    id: imageId,
    name: opts.name ?? `image-${imageId.slice(0, 8)}.czi`,
    organizationId: opts.organizationId,
    creatorUserId: opts.creatorUserId ?? null,
    status: opts.status ?? 'completed',
    scanGroupId,
  });
  return { imageId, scanGroupId };
}
