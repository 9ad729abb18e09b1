// A brand-new install through HTTP: the default organ catalogue on a fresh database (and never over
// an existing one), the demo lab a super administrator loads into the running server without twins
// of the default organs, the prompt to change the generated password until it is changed, and
// `npm start -- --demo` (the server process itself) loading the demo lab at its first start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DEMO_ORGANIZATION, type DemoLabResult } from '../../src/api/first-run';
import { buildApp } from '../../src/server/app';
import { bootstrap } from '../../src/server/bootstrap';
import { DEFAULT_ORGANS, seedDefaultOrgans } from '../../src/server/catalog/default-organs';
import { loadConfig } from '../../src/server/config';
import { organs } from '../../src/server/db/schema';
import { addUser, bearer, dbTargets, login, startApp, type TestApp } from './helpers';
import { firstStartPrinted, freePort, readPrinted, startServer, stopServer } from '../e2e/server-process';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();
const DEFAULT_COUNT = Object.values(DEFAULT_ORGANS).flat().length;

interface OrganRow {
  name: string;
  animal: string;
}

async function organList(app: FastifyInstance, token: string): Promise<OrganRow[]> {
  const res = await app.inject({ method: 'GET', url: '/v2/organs?limit=100', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as OrganRow[];
}

describe.each(targets)('first run on $name', (target) => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let password: string;

  beforeAll(async () => {
    // As `npm start` does on a fresh database: no ADMIN_PASSWORD, so one is generated.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-first-run-'));
    const database = await target.open();
    app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, DIST_DIR: path.join(dataDir, 'no-dist') }),
      database,
    });
    const first = await bootstrap(app.ctx.db, {});
    password = first!.generatedPassword!;
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it('starts the organ catalogue with human and mouse organs, once', async () => {
    expect(await seedDefaultOrgans(app.ctx.db)).toBe(DEFAULT_COUNT);
    expect(await seedDefaultOrgans(app.ctx.db)).toBe(0);
    const { access } = await login(app, 'admin@tessera.local', password);
    const list = await organList(app, access);
    expect(list).toHaveLength(DEFAULT_COUNT);
    expect(DEFAULT_COUNT).toBeLessThanOrEqual(100); // the app loads the list whole (?limit=100)
    const of = (animal: string) => list.filter((o) => o.animal === animal).map((o) => o.name);
    for (const name of ['Liver', 'Lung', 'Kidney', 'Heart', 'Brain', 'Spleen', 'Skin', 'Colon'])
      for (const animal of ['Human', 'Mouse']) expect(of(animal)).toContain(name);
    expect(of('Human')).toEqual(expect.arrayContaining(['Small intestine', 'Breast', 'Lymph node']));
    expect(of('Mouse')).toEqual(expect.arrayContaining(['Bone marrow', 'Mammary gland']));
  });

  it('asks for a new password until the generated one is changed', async () => {
    const { access } = await login(app, 'admin@tessera.local', password);
    const me = async (token: string) =>
      (await app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(token) })).json();
    expect((await me(access)).passwordChangeAdvised).toBe(true);
    const changed = await app.inject({
      method: 'POST',
      url: '/v2/auth/change-password',
      headers: bearer(access),
      payload: { oldPassword: password, newPassword: 'a password of my own' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(access)).passwordChangeAdvised).toBe(false);
    password = 'a password of my own';
  });

  it('loads the demo lab for the super administrator only, once, reusing the default organs', async () => {
    await seedDefaultOrgans(app.ctx.db); // a no-op after the first test; this one also runs alone
    await addUser(app, {
      email: 'tech@lab.test',
      password: 'tech password',
      policies: ['createOrganizationLabels'],
    });
    const tech = await login(app, 'tech@lab.test', 'tech password');
    const post = (token: string) =>
      app.inject({ method: 'POST', url: '/v2/demo-lab', headers: bearer(token), payload: {} });
    const refused = await post(tech.access);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(errorText('DEMO_SUPER_ADMIN_ONLY'));

    const { access } = await login(app, 'admin@tessera.local', password);
    const loaded = await post(access);
    expect(loaded.statusCode, loaded.body).toBe(200);
    const result = loaded.json() as DemoLabResult;
    expect(result.organization).toBe(DEMO_ORGANIZATION);
    const alice = result.users.find((u) => u.email === 'admin@northside.demo')!;
    expect((await login(app, alice.email, alice.password)).access).toBeTruthy();

    // The demo's organs are the default ones: no twin 'Liver'/'human' beside 'Liver'/'Human'.
    const list = await organList(app, access);
    expect(list).toHaveLength(DEFAULT_COUNT);
    const pipelines = await app.inject({ method: 'GET', url: '/v2/pipelines', headers: bearer(access) });
    expect(pipelines.json().count).toBe(result.pipelines);

    const again = await post(access);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(errorText('DEMO_LOADED'));
  });
});

describe.each(targets)('default organs over an existing catalogue on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('leaves a catalogue that has organs alone', async () => {
    await t.app.ctx.db.insert(organs).values({ id: crypto.randomUUID(), name: 'Fin', animal: 'Zebrafish' });
    expect(await seedDefaultOrgans(t.app.ctx.db)).toBe(0);
    expect(await t.app.ctx.db.select().from(organs)).toHaveLength(1);
  });
});

describe('npm start -- --demo', () => {
  it('starts with the default organs and the demo lab, and prints the demo sign-ins', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-demo-start-'));
    const port = await freePort();
    const server = startServer(port, dataDir, ['--demo']);
    try {
      // The demo lab's slides are processed before the server prints its sign-ins: on two shared cores,
      // beside the end-to-end suite (tests/run-suites.ts), that can take more than a minute.
      const printed = await readPrinted(
        server,
        (text) => (/Demo sign-ins/.test(text) && /running at/.test(text) ? text : undefined),
        150_000,
      );
      expect(printed).toContain(`Seeded ${DEMO_ORGANIZATION}`);
      expect(printed).toMatch(/admin@northside\.demo\s+northside-admin/);
      const first = firstStartPrinted(printed)!;
      const res = await fetch(`http://127.0.0.1:${port}/v2/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: first.email, password: first.password }),
      });
      const { accessToken } = (await res.json()) as { accessToken: { token: string } };
      const organList = await fetch(`http://127.0.0.1:${port}/v2/organs?limit=100`, {
        headers: bearer(accessToken.token),
      });
      expect(((await organList.json()) as { count: number }).count).toBe(DEFAULT_COUNT);
    } finally {
      await stopServer(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
