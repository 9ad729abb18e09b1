// The remembered session: who is signed in, when their tokens expire (server time) and how far the
// server's clock is from the device's, so the app can open signed in while offline. A session whose
// refresh token has lapsed is kept too: its user still reads their local data until they sign in
// again (docs/offline.md). Data read back is checked, never trusted blindly (STYLE §6).
import { Me } from '../api/auth';
import { localDb, type LocalDb, type StoredSession } from './db';

export async function loadSession(db: LocalDb = localDb()): Promise<StoredSession | undefined> {
  const row = await db.session.get('current');
  if (!row) return undefined;
  const me = Me.safeParse(row.me);
  // A damaged record cannot resume a session.
  if (
    !me.success ||
    Number.isNaN(Date.parse(row.refreshExpires)) ||
    Number.isNaN(Date.parse(row.accessExpires))
  ) {
    await db.session.delete('current');
    return undefined;
  }
  const offset =
    typeof row.clockOffsetMs === 'number' && Number.isFinite(row.clockOffsetMs)
      ? row.clockOffsetMs
      : undefined;
  const refreshedAt = typeof row.refreshedAt === 'string' ? row.refreshedAt : undefined;
  return { ...row, me: me.data, clockOffsetMs: offset, refreshedAt };
}

export async function saveSession(
  value: Omit<StoredSession, 'key' | 'savedAt'>,
  db: LocalDb = localDb(),
): Promise<StoredSession> {
  const row: StoredSession = { key: 'current', ...value, savedAt: new Date().toISOString() };
  await db.session.put(row);
  return row;
}

export async function clearSession(db: LocalDb = localDb()): Promise<void> {
  await db.session.delete('current');
}
