// The access-token signing secret: JWT_SECRET, or one generated once and kept in the database so every
// server process of the same database signs and verifies alike (stateless servers, DESIGN.md).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { settings } from '../db/schema';
import { randomSecret } from '../secrets/random-secrets';

export async function loadSigningSecret(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(settings)
    .values({ key: 'jwt_secret', value: randomSecret(48) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, 'jwt_secret'));
  return new TextEncoder().encode(row.value);
}
