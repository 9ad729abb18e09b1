// /v2/organs, /v2/pipelines, /v2/predictors through HTTP: who reads, who manages, references and
// set operations, deletion guards; on PGlite and (when it answers) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccessText } from '../../src/api/access-messages';
import { Denied } from '../../src/api/messages';
import { organs, pipelines, predictors, tombstones } from '../../src/server/db/schema';
import {
  addLabFixture,
  bearer,
  dbTargets,
  startApp,
  type LabFixture,
  type Persona,
  type TestApp,
} from './helpers';
import { errorText } from '../../src/api/errors';

const targets = await dbTargets();
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe.each(targets)('catalogue on $name', (target) => {
  let t: TestApp;
  let f: LabFixture;
  beforeAll(async () => {
    t = await startApp(target);
    f = await addLabFixture(t.app);
  });
  afterAll(() => t.close());

  const call = (who: Persona, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url: `/v2${url}`, headers: bearer(who.token), payload });
  const create = async (who: Persona, path: string, key: string, body: object) => {
    const res = await call(who, 'POST', path, { [key]: body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as { id: string } & Record<string, unknown>;
  };

  describe('organs', () => {
    it('lets platform administrators create, rename and delete, and everyone read', async () => {
      const liver = await create(f.platform, '/organs', 'organ', { name: 'Liver', animal: 'human' });
      expect(liver).toMatchObject({ name: 'Liver', animal: 'human', createdBy: f.platform.id });
      const kidney = await create(f.superAdmin, '/organs', 'organ', { name: 'Kidney', animal: 'mouse' });
      const list = await call(f.member, 'GET', '/organs?limit=100');
      expect(list.statusCode).toBe(200);
      expect(list.json().result.map((o: { name: string }) => o.name)).toEqual(['Kidney', 'Liver']);
      expect(list.json().limit).toBe(100);
      const mice = await call(f.outsider, 'GET', '/organs?animal=Mouse');
      expect(mice.json().result.map((o: { id: string }) => o.id)).toEqual([kidney.id]);
      expect((await call(f.member, 'GET', `/organs/${liver.id}`)).json().result.name).toBe('Liver');
      const renamed = await call(f.platform, 'PATCH', `/organs/${kidney.id}`, {
        organ: { name: 'Renal cortex' },
      });
      expect(renamed.json().result.name).toBe('Renal cortex');
      const del = await call(f.platform, 'DELETE', `/organs/${kidney.id}`);
      expect(del.json()).toEqual({ result: { id: kidney.id } });
      expect(await t.app.ctx.db.select().from(tombstones).where(eq(tombstones.id, kidney.id))).toHaveLength(
        1,
      );
    });

    it('refuses everyone else', async () => {
      for (const who of [f.orgAdmin, f.member, f.qc, f.outsider]) {
        const res = await call(who, 'POST', '/organs', { organ: { name: 'Skin', animal: 'human' } });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(Denied.noCreatePermission);
      }
      const [any] = await t.app.ctx.db.select().from(organs);
      const patch = await call(f.orgAdmin, 'PATCH', `/organs/${any.id}`, { organ: { name: 'X' } });
      expect(patch.statusCode).toBe(403);
      expect(patch.json().message).toBe(AccessText.generic);
      expect((await call(f.member, 'DELETE', `/organs/${any.id}`)).statusCode).toBe(403);
      expect(await t.app.ctx.db.select().from(organs).where(eq(organs.name, 'Skin'))).toHaveLength(0);
    });

    it('refuses duplicates, bad input and a limit above 100', async () => {
      const dup = await call(f.platform, 'POST', '/organs', { organ: { name: 'liver', animal: 'Human' } });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe(errorText('ORGAN_EXISTS'));
      const blank = await call(f.platform, 'POST', '/organs', { organ: { name: 'Lung' } });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toMatch(/^body\.organ\.animal: /);
      expect((await call(f.member, 'GET', '/organs?limit=101')).json().message).toBe(
        'querystring.limit: limit is at most 100',
      );
      const missing = await call(f.member, 'GET', `/organs/${crypto.randomUUID()}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Organ not found');
    });
  });

  describe('predictors', () => {
    it('creates with the assay fields, filters by name, and updates', async () => {
      const [liver] = await t.app.ctx.db.select().from(organs).where(eq(organs.name, 'Liver'));
      const he = await create(f.platform, '/predictors', 'predictor', {
        name: 'H&E virtual stain',
        title: 'H&E',
        version: '2.1',
        organId: liver.id,
        scanType: 'autofluorescence',
        inputPixelScale: 0.25,
        outputTileShape: [512, 512],
        inputChannels: [{ name: 'DAPI' }],
        archiveAt: null,
      });
      expect(he).toMatchObject({ version: '2.1', storageStatus: 'active', outputTileShape: [512, 512] });
      await create(f.platform, '/predictors', 'predictor', { name: 'Ki-67' });
      const found = await call(f.member, 'GET', '/predictors?name=h%26e');
      expect(found.json().result.map((p: { name: string }) => p.name)).toEqual(['H&E virtual stain']);
      const upd = await call(f.platform, 'PATCH', `/predictors/${he.id}`, {
        predictor: { version: '2.2', archiveAt: '2030-01-01T00:00:00.000Z' },
      });
      expect(upd.json().result).toMatchObject({ version: '2.2', archiveAt: '2030-01-01T00:00:00.000Z' });
    });

    it('refuses non-administrators and bad references', async () => {
      const res = await call(f.orgAdmin, 'POST', '/predictors', { predictor: { name: 'Mine' } });
      expect(res.statusCode).toBe(403);
      const bad = await call(f.platform, 'POST', '/predictors', {
        predictor: { name: 'Bad', organId: crypto.randomUUID() },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(errorText('NO_SUCH_ORGAN', { field: 'organId' }));
      const scale = await call(f.platform, 'POST', '/predictors', {
        predictor: { name: 'B', inputPixelScale: -1 },
      });
      expect(scale.json().message).toMatch(/^body\.predictor\.inputPixelScale: /);
      expect(await t.app.ctx.db.select().from(predictors).where(eq(predictors.name, 'Bad'))).toHaveLength(0);
      const [liver] = await t.app.ctx.db.select().from(organs).where(eq(organs.name, 'Liver'));
      const inUse = await call(f.platform, 'DELETE', `/organs/${liver.id}`);
      expect(inUse.statusCode).toBe(409);
      expect(inUse.json().message).toBe(errorText('ORGAN_IN_USE'));
    });
  });

  describe('pipelines', () => {
    it('is readable by the assigned organization and its teams only', async () => {
      const [he] = await t.app.ctx.db
        .select()
        .from(predictors)
        .where(eq(predictors.name, 'H&E virtual stain'));
      const p = await create(f.platform, '/pipelines', 'pipeline', {
        name: 'H&E standard',
        predictorIds: [he.id],
        assigneeOrgIds: [f.orgs.lab],
      });
      expect(p).toMatchObject({
        predictorIds: [he.id],
        assigneeOrgIds: [f.orgs.lab],
        creatorUserId: f.platform.id,
      });
      const member = await call(f.member, 'GET', '/pipelines');
      expect(member.json().result.map((x: { id: string }) => x.id)).toEqual([p.id]);
      expect((await call(f.member, 'GET', `/pipelines/${p.id}`)).statusCode).toBe(200);
      expect((await call(f.outsider, 'GET', '/pipelines')).json().count).toBe(0);
      const hidden = await call(f.outsider, 'GET', `/pipelines/${p.id}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Pipeline not found');
    });

    it('merges set edits of predictors and assignees', async () => {
      const [p] = await t.app.ctx.db.select().from(pipelines).where(eq(pipelines.name, 'H&E standard'));
      const [ki] = await t.app.ctx.db.select().from(predictors).where(eq(predictors.name, 'Ki-67'));
      await call(f.platform, 'PATCH', `/pipelines/${p.id}`, { add: { predictorIds: [ki.id] } });
      const res = await call(f.platform, 'PATCH', `/pipelines/${p.id}`, {
        add: { assigneeOrgIds: [f.orgs.other] },
        pipeline: { name: 'H&E + Ki-67' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().result).toMatchObject({
        name: 'H&E + Ki-67',
        predictorIds: [...p.predictorIds, ki.id],
        assigneeOrgIds: [f.orgs.lab, f.orgs.other],
      });
      expect((await call(f.outsider, 'GET', `/pipelines/${p.id}`)).statusCode).toBe(200);
      const unknown = await call(f.platform, 'PATCH', `/pipelines/${p.id}`, {
        add: { predictorIds: [crypto.randomUUID()] },
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toMatch(/^predictorIds: no such predictor /);
    });

    it('refuses changes to members and guards deletion of used predictors', async () => {
      const [p] = await t.app.ctx.db.select().from(pipelines);
      const res = await call(f.member, 'PATCH', `/pipelines/${p.id}`, { pipeline: { name: 'Mine' } });
      expect(res.statusCode).toBe(403);
      expect((await call(f.member, 'POST', '/pipelines', { pipeline: { name: 'X' } })).statusCode).toBe(403);
      const used = await call(f.platform, 'DELETE', `/predictors/${p.predictorIds[0]}`);
      expect(used.statusCode).toBe(409);
      expect(used.json().message).toBe(errorText('PREDICTOR_IN_USE'));
      const del = await call(f.platform, 'DELETE', `/pipelines/${p.id}`);
      expect(del.statusCode).toBe(200);
      expect((await call(f.platform, 'DELETE', `/predictors/${p.predictorIds[0]}`)).statusCode).toBe(200);
    });
  });
  describe('sync feed', () => {
    it('serves organs and predictors to everyone and pipelines by assignment, with deletions', async () => {
      const pull = async (who: Persona, kind: string) => {
        const res = await call(who, 'GET', `/sync/${kind}?limit=500`);
        expect(res.statusCode).toBe(200);
        return res.json() as { result: Array<{ id: string }>; deletedIds: string[] };
      };
      const all = await t.app.ctx.db.select().from(organs);
      expect((await pull(f.outsider, 'organs')).result.map((o) => o.id).sort()).toEqual(
        all.map((o) => o.id).sort(),
      );
      expect((await pull(f.member, 'organs')).deletedIds.length).toBeGreaterThan(0);
      expect((await pull(f.member, 'predictors')).result.length).toBeGreaterThan(0);
      const p = await create(f.platform, '/pipelines', 'pipeline', {
        name: 'Synced',
        assigneeOrgIds: [f.orgs.teamB],
      });
      expect((await pull(f.member, 'pipelines')).result.map((x) => x.id)).not.toContain(p.id);
      expect((await pull(f.orgAdmin, 'pipelines')).result.map((x) => x.id)).not.toContain(p.id);
      const teamB = await call(f.platform, 'GET', `/sync/pipelines/ids`);
      expect(teamB.json().ids).toContain(p.id);
    });
  });
});
