// POST /v2/reactions also takes the body wrapped as {reaction:{...}}, the shape the app's outbox sends
// for every create (hearts queued offline), and still refuses unknown fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganization, bearer, dbTargets, memberToken, startApp, type TestApp } from './helpers';

const targets = await dbTargets();

describe.each(targets)('wrapped reactions on $name', (target) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let slideId: string;

  beforeAll(async () => {
    t = await startApp(target);
    const lab = await addOrganization(t.app, { name: 'Lab' });
    owner = await memberToken(t.app, {
      email: 'owner@lab.test',
      organizationId: lab,
      policies: ['createOrganizationLabels'],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/scan-groups',
      headers: bearer(owner.token),
      payload: { scanGroup: {} },
    });
    slideId = res.json().result.id;
  });
  afterAll(() => t.close());

  const post = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/v2/reactions', headers: bearer(owner.token), payload });

  it('creates a heart from {reaction:{...}}', async () => {
    const res = await post({
      reaction: { reactionType: 'heart', reference: 'ScanGroup', referenceId: slideId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({ creatorUserId: owner.id, referenceId: slideId });
  });

  it('refuses unknown fields inside the wrapper with a 400', async () => {
    const res = await post({
      reaction: { reactionType: 'heart', reference: 'ScanGroup', referenceId: slideId, extra: 1 },
    });
    expect(res.statusCode).toBe(400);
  });
});
