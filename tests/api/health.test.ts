// /v2/health says what the process is and which parts it uses; /v2/health/ready says whether it
// reaches them now: 200 with each part 'ok', or 503 naming the unreachable part and nothing internal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetStorage } from '../../src/server/storage';
import { dbTargets, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('health on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(target);
  });
  afterAll(() => t.close());

  it('describes the process: a web server, running jobs once its worker starts', async () => {
    const idle = (await t.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(idle).toEqual({ ok: true, role: 'web', jobs: null, database: target.name, storage: 'disk' });
    t.app.ctx.jobs.start();
    const working = (await t.app.inject({ method: 'GET', url: '/v2/health' })).json();
    expect(working).toMatchObject({ role: 'web+worker', jobs: { concurrency: t.app.ctx.jobs.concurrency } });
    await t.app.ctx.jobs.stop();
  });

  it('is ready when the database and the file storage answer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ready: true, parts: { database: 'ok', storage: 'ok' } });
  });
});

describe('readiness with an object store that does not answer', () => {
  const [target] = targets;
  let t: TestApp;
  const saved = { ...process.env };
  beforeAll(async () => {
    // Nothing listens on port 9: every request to the bucket fails at once.
    Object.assign(process.env, {
      S3_BUCKET: 'tessera-health',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'y',
      S3_FORCE_PATH_STYLE: 'true',
    });
    t = await startApp(target);
  });
  afterAll(async () => {
    await t?.close();
    forgetStorage(t.dataDir);
    process.env = saved;
  });

  it('answers 503 naming the storage, with no internal text', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      ready: false,
      role: 'web',
      jobs: null,
      database: target.name,
      storage: 's3',
      parts: { database: 'ok', storage: 'unreachable' },
    });
  });
});
