// Who may call what, as one table: every route of organizations, users, the catalogue, orders and
// mail, against six policy sets. Each cell is the expected status, and a refused call (or a read) must
// leave the tables it could write as they were; each case gets fresh target rows, so the order of
// cases never matters. On PGlite and (when it answers) PostgreSQL.
//
// Columns: super admin | platform managers | lab admin | team member | QC reviewer | outsider (admin
// policies, other root). 200 allowed; 403 denied; 404 unreadable (hidden); 400 a reference the caller
// cannot read.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organs, pipelines, predictors, scanOrderLists, scanOrders } from '../../src/server/db/schema';
import {
  addLabFixture,
  addMember,
  addOrganization,
  bearer,
  dbTargets,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { tableFingerprint } from './table-fingerprint';

const PERSONAS = ['superAdmin', 'platform', 'orgAdmin', 'member', 'qc', 'outsider'] as const;
type PersonaName = (typeof PERSONAS)[number];

interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
}
interface Ctx {
  t: TestApp;
  f: LabFixture;
  me: Persona;
}
type Setup = (c: Ctx) => Promise<Call> | Call;

const uid = () => crypto.randomUUID();
const db = (c: Ctx) => c.t.app.ctx.db;
const team = (c: Ctx) => addOrganization(c.t.app, { name: `T-${uid()}`, parentId: c.f.orgs.lab });
const labUser = (c: Ctx) => addMember(c.t.app, { email: `${uid()}@lab.test`, organizationId: c.f.orgs.lab });
const organ = async (c: Ctx) => {
  const id = uid();
  await db(c)
    .insert(organs)
    .values({ id, name: `O-${id}`, animal: 'human' });
  return id;
};
const pipeline = async (c: Ctx) => {
  const id = uid();
  await db(c)
    .insert(pipelines)
    .values({ id, name: `P-${id}`, assigneeOrgIds: [c.f.orgs.lab] });
  return id;
};
const predictor = async (c: Ctx) => {
  const id = uid();
  await db(c)
    .insert(predictors)
    .values({ id, name: `A-${id}` });
  return id;
};
/** An inactive order of team A, placed by the team member. */
const order = async (c: Ctx) => {
  const id = uid();
  const pipelineId = await pipeline(c);
  await db(c)
    .insert(scanOrders)
    .values({ id, organizationId: c.f.orgs.teamA, creatorUserId: c.f.member.id, pipelineId });
  return id;
};
const orderList = async (c: Ctx) => {
  const id = uid();
  await db(c)
    .insert(scanOrderLists)
    .values({ id, organizationId: c.f.orgs.teamA, creatorUserId: c.f.member.id });
  return id;
};

// Cells: super admin, platform managers, lab admin, team member, QC reviewer, outsider.
// prettier-ignore
const MATRIX: Array<[string, string, Setup]> = [
  ['list organizations', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/organizations' })],
  ['create a team in the lab', '200 200 200 403 403 400', (c) => ({ method: 'POST', url: '/organizations', payload: { organization: { name: `T-${uid()}`, parentId: c.f.orgs.teamA } } })],
  ['create a root organization', '200 200 403 403 403 403', () => ({ method: 'POST', url: '/organizations', payload: { organization: { name: `R-${uid()}` } } })],
  ['read the lab', '200 200 200 200 200 404', (c) => ({ method: 'GET', url: `/organizations/${c.f.orgs.lab}` })],
  ['update a team’s limit', '200 200 200 403 403 404', async (c) => ({ method: 'PATCH', url: `/organizations/${await team(c)}`, payload: { organization: { userLimit: 5 } } })],
  ['update the lab’s info', '200 200 200 403 403 404', (c) => ({ method: 'PATCH', url: `/organizations/${c.f.orgs.lab}`, payload: { organization: { info: { city: uid() } } } })],
  ['delete an empty team', '200 200 403 403 403 404', async (c) => ({ method: 'DELETE', url: `/organizations/${await team(c)}` })],
  ['delete the own organization', '403 403 403 403 403 403', (c) => ({ method: 'DELETE', url: `/organizations/${c.me.organizationId}` })],

  ['list users', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/users' })],
  ['check an e-mail', '200 200 200 403 403 200', () => ({ method: 'GET', url: '/users/check-email?email=a@b.test' })],
  ['invite into the lab', '200 200 200 403 403 403', (c) => ({ method: 'POST', url: '/users', payload: { user: { email: `${uid()}@lab.test`, organizationId: c.f.orgs.lab } } })],
  ['invite into the own organization', '200 200 200 403 403 200', () => ({ method: 'POST', url: '/users', payload: { user: { email: `${uid()}@lab.test` } } })],
  ['read a lab user', '200 200 200 200 200 404', (c) => ({ method: 'GET', url: `/users/${c.f.qc.id}` })],
  ['rename a lab user', '200 200 200 403 403 404', async (c) => ({ method: 'PATCH', url: `/users/${await labUser(c)}`, payload: { user: { name: 'Renamed' } } })],
  ['rename oneself', '200 200 200 200 200 200', (c) => ({ method: 'PATCH', url: `/users/${c.me.id}`, payload: { user: { name: `Me ${uid()}` } } })],
  ['set a lab user’s policies', '200 200 200 403 403 404', async (c) => ({ method: 'PATCH', url: `/users/${await labUser(c)}`, payload: { add: { enabledPolicies: ['createTeams'] } } })],
  ['delete a lab user', '200 200 200 403 403 404', async (c) => ({ method: 'DELETE', url: `/users/${await labUser(c)}` })],
  ['delete oneself', '403 403 403 403 403 403', (c) => ({ method: 'DELETE', url: `/users/${c.me.id}` })],

  ['list organs', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/organs?limit=100' })],
  ['read an organ', '200 200 200 200 200 200', async (c) => ({ method: 'GET', url: `/organs/${await organ(c)}` })],
  ['create an organ', '200 200 403 403 403 403', () => ({ method: 'POST', url: '/organs', payload: { organ: { name: uid(), animal: 'mouse' } } })],
  ['update an organ', '200 200 403 403 403 403', async (c) => ({ method: 'PATCH', url: `/organs/${await organ(c)}`, payload: { organ: { name: uid() } } })],
  ['delete an organ', '200 200 403 403 403 403', async (c) => ({ method: 'DELETE', url: `/organs/${await organ(c)}` })],
  ['list pipelines', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/pipelines' })],
  ['read a lab pipeline', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/pipelines/${await pipeline(c)}` })],
  ['create a pipeline', '200 200 403 403 403 403', () => ({ method: 'POST', url: '/pipelines', payload: { pipeline: { name: uid() } } })],
  ['update a lab pipeline', '200 200 403 403 403 404', async (c) => ({ method: 'PATCH', url: `/pipelines/${await pipeline(c)}`, payload: { pipeline: { name: uid() } } })],
  ['delete a lab pipeline', '200 200 403 403 403 404', async (c) => ({ method: 'DELETE', url: `/pipelines/${await pipeline(c)}` })],
  ['list predictors', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/predictors?name=a' })],
  ['read a predictor', '200 200 200 200 200 200', async (c) => ({ method: 'GET', url: `/predictors/${await predictor(c)}` })],
  ['create a predictor', '200 200 403 403 403 403', () => ({ method: 'POST', url: '/predictors', payload: { predictor: { name: uid() } } })],
  ['update a predictor', '200 200 403 403 403 403', async (c) => ({ method: 'PATCH', url: `/predictors/${await predictor(c)}`, payload: { predictor: { version: '9' } } })],
  ['delete a predictor', '200 200 403 403 403 403', async (c) => ({ method: 'DELETE', url: `/predictors/${await predictor(c)}` })],

  ['list scan orders', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/scan-orders?status=inactive&status=active' })],
  ['order on a lab pipeline', '200 200 200 200 403 400', async (c) => ({ method: 'POST', url: '/scan-orders', payload: { scanOrder: { pipelineId: await pipeline(c) } } })],
  ['order for someone else', '403 403 403 403 403 403', async (c) => ({ method: 'POST', url: '/scan-orders', payload: { scanOrder: { pipelineId: await pipeline(c), creatorUserId: c.f.qc.id } } })],
  ['read a team order', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/scan-orders/${await order(c)}` })],
  ['activate a team order', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/scan-orders/${await order(c)}`, payload: { scanOrder: { status: 'active' } } })],
  ['fulfil a team order', '200 200 403 403 403 404', async (c) => ({ method: 'PATCH', url: `/scan-orders/${await order(c)}`, payload: { scanOrder: { status: 'fulfilled' } } })],
  ['list order lists', '200 200 200 200 200 200', () => ({ method: 'GET', url: '/scan-order-lists' })],
  ['create an order list', '200 200 200 200 403 200', () => ({ method: 'POST', url: '/scan-order-lists', payload: { status: 'active' } })],
  ['read a team order list', '200 200 200 200 200 404', async (c) => ({ method: 'GET', url: `/scan-order-lists/${await orderList(c)}` })],
  ['close a team order list', '200 200 403 200 403 404', async (c) => ({ method: 'PATCH', url: `/scan-order-lists/${await orderList(c)}`, payload: { scanOrderList: { status: 'fulfilled' } } })],

  ['report a bug', '200 200 200 200 200 200', () => ({ method: 'POST', url: '/mail/send-bugs', payload: { message: 'It broke' } })],
  ['request a change', '200 200 200 200 200 200', () => ({ method: 'POST', url: '/mail/request-change', payload: { message: 'More, please' } })],
];

/** Everything a route of this matrix may write, as one fingerprint (a refusal must leave it as it was). */
const WATCHED = [
  'organizations',
  'users',
  'action_tokens',
  'organs',
  'pipelines',
  'predictors',
  'scan_orders',
  'scan_order_lists',
  'activities',
  'tombstones',
];
const fingerprint = (t: TestApp) => tableFingerprint(t, WATCHED);

const cases = MATRIX.flatMap(([route, cells, setup]) => {
  const codes = cells.split(' ').map(Number);
  return PERSONAS.map((persona, i) => ({ route, persona, expected: codes[i], setup }));
});

const targets = await dbTargets();

describe.each(targets)('authorization matrix on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  it('has a cell for every persona in every row', () => {
    for (const [route, cells] of MATRIX) expect(cells.split(' '), route).toHaveLength(PERSONAS.length);
  });

  it.each(cases)('$route as $persona → $expected', async ({ persona, expected, setup }) => {
    const me = f[persona as PersonaName];
    const call = await setup({ t, f, me });
    const before = await fingerprint(t);
    const res = await t.app.inject({ ...call, url: `/v2${call.url}`, headers: bearer(me.token) });
    expect(res.statusCode, res.body).toBe(expected);
    // Reads and refusals write nothing.
    if (call.method === 'GET' || res.statusCode >= 400)
      expect(await fingerprint(t), 'nothing written').toBe(before);
  });
});
