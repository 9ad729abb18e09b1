// EXPLAIN ANALYZE of the SQL the server really runs: while capturing, every statement sent through
// pg.Pool (the server's PostgreSQL pool) is recorded with its parameters; the bench then runs
// EXPLAIN (ANALYZE, BUFFERS) of each on its own connection and prints the plan's essentials.
import pg from 'pg';

export interface Captured {
  text: string;
  values: unknown[];
}

type PoolQuery = (this: pg.Pool, ...args: unknown[]) => unknown;

/** Records statements sent through any pg.Pool between start() and stop(). */
export function sqlCapture() {
  const proto = pg.Pool.prototype as unknown as { query: PoolQuery };
  const original = proto.query;
  let captured: Captured[] | undefined;
  proto.query = function (this: pg.Pool, ...args: unknown[]) {
    if (captured) {
      const [q, v] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      if (typeof q === 'string') captured.push({ text: q, values: v ?? [] });
      else if (q && typeof q.text === 'string') captured.push({ text: q.text, values: q.values ?? v ?? [] });
    }
    return original.apply(this, args);
  };
  return {
    start() {
      captured = [];
    },
    stop(): Captured[] {
      const out = captured ?? [];
      captured = undefined;
      return out;
    },
    restore() {
      proto.query = original;
    },
  };
}

export interface PlanSummary {
  /** The plan as PostgreSQL prints it. */
  text: string;
  executionMs: number;
  /** The scan nodes: what was read and how (Seq Scan on scan_groups, Index Scan using …). */
  scans: string[];
}

export async function explain(url: string, q: Captured): Promise<PlanSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const res = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`,
      q.values as unknown[],
    );
    const lines = res.rows.map((r) => r['QUERY PLAN']);
    const exec = lines.find((l) => l.startsWith('Execution Time'));
    return {
      text: lines.join('\n'),
      executionMs: exec ? Number(/([\d.]+) ms/.exec(exec)?.[1]) : NaN,
      scans: lines
        .filter((l) => /Scan|Sort Method|Rows Removed by Filter/.test(l))
        .map((l) => l.trim().replace(/\s*\(cost=[^)]*\)/, '')),
    };
  } finally {
    await client.end();
  }
}
