// Idempotency-Key under concurrency (docs/security.md): a key whose first request still runs answers
// 409 with Retry-After and applies nothing; a key sent again with another body answers 422; a replay
// of a finished request gets its first answer; a reservation left by a process that died is taken over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_KEY_REUSED } from '../../src/api/idempotency';
import { idempotencyKeys, studies } from '../../src/server/db/schema';
import { IDEMPOTENCY_STALE_MS } from '../../src/server/http/idempotency';
import { bearer, dbTargets, login, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('Idempotency-Key on $name', (target) => {
  let t: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    t = await startApp(target);
    const session = await login(t.app);
    token = session.access;
    const me = await t.app.inject({ method: 'GET', url: '/v2/auth/me', headers: bearer(token) });
    userId = me.json().user.id;
  });
  afterAll(() => t.close());

  const createStudy = (key: string, name: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/studies',
      headers: { ...bearer(token), 'idempotency-key': key },
      payload: { study: { name } },
    });
  const studiesNamed = async (prefix: string) =>
    (
      await t.app.ctx.db
        .select()
        .from(studies)
        .where(like(studies.name, `${prefix}%`))
    ).length;

  /** What another server holds while it runs the first request with this key. */
  const holdRunning = (key: string, name: string, startedAt = new Date()) =>
    t.app.ctx.db.insert(idempotencyKeys).values({
      key,
      userId,
      method: 'POST',
      path: '/v2/studies',
      statusCode: '0',
      createdAt: startedAt,
      // Whatever the running request's hash, a repeat while it runs is told to wait, not refused.
      requestHash: null,
      body: { name },
    });

  it('answers 409 with Retry-After while the first request with the key runs, and applies nothing', async () => {
    await holdRunning('running-key', 'Running');
    const repeat = await createStudy('running-key', 'Running study');
    expect(repeat.statusCode).toBe(409);
    expect(repeat.json().code).toBe(IDEMPOTENCY_IN_PROGRESS);
    expect(Number(repeat.headers['retry-after'])).toBeGreaterThan(0);
    expect(await studiesNamed('Running study')).toBe(0);
  });

  it('takes over a reservation whose process died, and applies the request once', async () => {
    await holdRunning('orphan-key', 'Orphan', new Date(Date.now() - IDEMPOTENCY_STALE_MS - 1000));
    const first = await createStudy('orphan-key', 'Orphan study');
    expect(first.statusCode).toBe(200);
    const again = await createStudy('orphan-key', 'Orphan study');
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await studiesNamed('Orphan study')).toBe(1);
  });

  it('applies concurrent sends of one key once; the others wait or get the first answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => createStudy('burst-key', 'Burst study')),
    );
    for (const answer of answers) {
      if (answer.statusCode === 409) expect(answer.json().code).toBe(IDEMPOTENCY_IN_PROGRESS);
      else expect(answer.statusCode).toBe(200);
    }
    expect(await studiesNamed('Burst study')).toBe(1);
    const [row] = await t.app.ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.key, 'burst-key'), eq(idempotencyKeys.userId, userId)));
    expect(row.completedAt).not.toBeNull();
    expect(row.statusCode).toBe('200');
  });

  it('answers 422 to a key sent again with another body, and applies nothing', async () => {
    expect((await createStudy('reused-key', 'Reused study A')).statusCode).toBe(200);
    const other = await createStudy('reused-key', 'Reused study B');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe(IDEMPOTENCY_KEY_REUSED);
    expect(await studiesNamed('Reused study B')).toBe(0);
  });

  it('keeps keys per user: the same key from another user is not theirs to replay', async () => {
    await t.app.ctx.db
      .update(idempotencyKeys)
      .set({ userId: '00000000-0000-4000-8000-000000000001' })
      .where(eq(idempotencyKeys.key, 'reused-key'));
    expect((await createStudy('reused-key', 'Reused study C')).statusCode).toBe(200);
    expect(await studiesNamed('Reused study C')).toBe(1);
  });
});
