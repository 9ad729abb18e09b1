// The remembered session: kept after its refresh token's life (its user still reads their local data
// offline), with the offset to the server's clock; a damaged record is dropped.
import { describe, expect, it } from 'vitest';
import type { Me } from '../../../src/api/auth';
import { loadSession, saveSession } from '../../../src/local/session';
import { freshDb } from './harness';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const me: Me = {
  user: {
    id: id(1),
    email: 'lab@example.org',
    search: 'lab',
    name: 'Lab',
    status: 'active',
    organizationId: id(2),
    enabledPolicies: [],
    requestedPolicies: [],
    creatorUserId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  },
  organization: {
    id: id(2),
    name: 'Lab',
    rootId: id(2),
    parentId: null,
    parentIds: [],
    childIds: [],
    enabledPolicies: [],
    availablePolicies: [],
    info: {},
    creatorUserId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    adminUserId: null,
    scanGroupSettings: {},
    userLimit: null,
    numberOfUsers: 1,
  },
  effectivePolicies: [],
};
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();

describe('the remembered session', () => {
  it('is kept after its refresh token lapsed, with the offset to the server clock', async () => {
    const db = freshDb();
    const refreshExpires = daysAgo(3);
    await saveSession({ me, accessExpires: daysAgo(10), refreshExpires, clockOffsetMs: -1_200_000 }, db);
    expect(await loadSession(db)).toMatchObject({
      me: { user: { id: id(1) } },
      refreshExpires,
      clockOffsetMs: -1_200_000,
    });
  });

  it('drops a record with an unreadable expiry or user', async () => {
    const db = freshDb();
    await saveSession({ me, accessExpires: 'soon', refreshExpires: daysAgo(-7) }, db);
    expect(await loadSession(db)).toBeUndefined();
    await saveSession(
      { me: { user: 'x' } as never, accessExpires: daysAgo(0), refreshExpires: daysAgo(-7) },
      db,
    );
    expect(await loadSession(db)).toBeUndefined();
    expect(await db.session.count()).toBe(0);
  });
});
