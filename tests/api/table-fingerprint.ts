// One digest of every row of the named tables, so a test can prove that a refused (or read-only)
// request wrote nothing: equal fingerprints before and after.
import type { TestApp } from './helpers';

export async function tableFingerprint(t: TestApp, tables: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const [row] = await t.app.ctx.database.query<{ d: string | null }>(
      `SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS d FROM ${table} x`,
    );
    parts.push(`${table}:${row.d ?? ''}`);
  }
  return parts.join(' ');
}
