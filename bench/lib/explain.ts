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
  /** PostgreSQL's planning time of the statement (what a prepared statement's generic plan saves). */
  planningMs: number;
  /** The scan nodes: what was read and how (Seq Scan on scan_groups, Index Scan using …). */
  scans: string[];
}

/**
 * `generic`: the plan PostgreSQL settles on for a prepared statement run often (its generic plan,
 * made without the parameters' values) instead of one made for these values.
 */
export async function explain(url: string, q: Captured, generic = false): Promise<PlanSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (generic) await client.query('SET plan_cache_mode = force_generic_plan');
    const res = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${q.text}`,
      q.values as unknown[],
    );
    const lines = res.rows.map((r) => r['QUERY PLAN']);
    const timeOf = (what: string) => {
      const line = lines.find((l) => l.startsWith(what));
      return line ? Number(/([\d.]+) ms/.exec(line)?.[1]) : NaN;
    };
    return {
      text: lines.join('\n'),
      executionMs: timeOf('Execution Time'),
      planningMs: timeOf('Planning Time'),
      scans: lines
        .filter((l) => /Scan|Sort Method|Rows Removed by Filter/.test(l))
        .map((l) => l.trim().replace(/\s*\(cost=[^)]*\)/, '')),
    };
  } finally {
    await client.end();
  }
}
