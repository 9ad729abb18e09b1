// Whether a user still signs in with the password the first start generated and printed: such a
// password has sat in a terminal or a log, so the app asks for a new one until it is changed. Kept
// as a `settings` row per user (no column for one user's one-time state).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { settings } from '../db/schema';

const keyOf = (userId: string) => `generated-password:${userId}`;

export async function markPasswordGenerated(db: Db, userId: string): Promise<void> {
  await db
    .insert(settings)
    .values({ key: keyOf(userId), value: new Date().toISOString() })
    .onConflictDoNothing();
}

export async function isPasswordGenerated(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ key: settings.key })
    .from(settings)
    .where(eq(settings.key, keyOf(userId)));
  return !!row;
}

/** A password chosen by the user (changed or reset) ends the prompt. */
export async function forgetPasswordGenerated(db: Db, userId: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, keyOf(userId)));
}
