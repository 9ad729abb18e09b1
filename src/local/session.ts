// The remembered session: who is signed in and when their tokens expire, so the app can open
// signed in while offline. Data read back is checked, never trusted blindly (STYLE §6).
import { Me } from '../api/auth';
import { localDb, type LocalDb, type StoredSession } from './db';

export async function loadSession(db: LocalDb = localDb()): Promise<StoredSession | undefined> {
  const row = await db.session.get('current');
  if (!row) return undefined;
  const me = Me.safeParse(row.me);
  const refreshExpires = Date.parse(row.refreshExpires);
  // A damaged record, or one whose refresh token has expired, cannot resume a session.
  if (!me.success || Number.isNaN(refreshExpires) || refreshExpires < Date.now()) {
    await db.session.delete('current');
    return undefined;
  }
  return { ...row, me: me.data };
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
